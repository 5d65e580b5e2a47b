//! The forward pass of the shipped sentence encoder, a small BERT
//! (all-MiniLM-L6-v2: 6 layers, hidden 384, 12 heads, feed-forward 1536),
//! for one sequence at a time, in plain Rust: the dense layers read their
//! f16 weights in place (AVX2/FMA/F16C when the processor has them,
//! detected at run time; a portable loop otherwise).

use std::collections::HashMap;

use serde::Deserialize;

pub const HIDDEN: usize = 384;
const HEADS: usize = 12;
const HEAD: usize = HIDDEN / HEADS;
const FFN: usize = 1536;
const LAYERS: usize = 6;
const EPS: f32 = 1e-12;

/// A dense layer: `weight` is `[out][in]` (row-major), as PyTorch keeps
/// it, as f16 bits: at the offset `weight` of the model file's bytes.
struct Linear {
    weight: usize,
    bias: Vec<f32>,
    inputs: usize,
    outputs: usize,
}

struct Norm {
    gain: Vec<f32>,
    bias: Vec<f32>,
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attn_out: Linear,
    attn_norm: Norm,
    up: Linear,
    down: Linear,
    out_norm: Norm,
}

/// The model over the bytes of its file: the large matrices (token
/// embeddings and dense layers, 22.6 M of the 22.7 M weights) are read in
/// place as f16 and widened as they are used; only norms, biases and
/// position embeddings are kept as f32.
pub struct Bert {
    /// The model file's bytes after its header.
    data: Vec<u8>,
    /// Offset of the token embeddings (`[vocab][HIDDEN]` f16).
    words: usize,
    positions: Vec<f32>,
    token_type: Vec<f32>,
    embed_norm: Norm,
    layers: Vec<Layer>,
    pub max_positions: usize,
}

#[derive(Deserialize)]
struct TensorInfo {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: [usize; 2],
}

/// The tensors of a safetensors file (f16 only), by name.
struct Tensors {
    info: HashMap<String, TensorInfo>,
}

/// f16 bits to f32 (via `half`).
fn widen(bits: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bits.chunks_exact(2)
        .map(|c| half::f16::from_bits(u16::from_le_bytes([c[0], c[1]])).to_f32())
}

impl Tensors {
    /// The header; returns it and where the data starts.
    fn parse(bytes: &[u8]) -> Result<(Tensors, usize), String> {
        let len = bytes
            .get(..8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()) as usize)
            .ok_or("the model file is shorter than its header")?;
        let header = bytes
            .get(8..8usize.saturating_add(len))
            .ok_or("the model file's header runs past its end")?;
        let mut info: HashMap<String, serde_json::Value> =
            serde_json::from_slice(header).map_err(|e| format!("the model's header: {e}"))?;
        info.remove("__metadata__");
        let info = info
            .into_iter()
            .map(|(k, v)| Ok((k, serde_json::from_value(v).map_err(|e| e.to_string())?)))
            .collect::<Result<HashMap<String, TensorInfo>, String>>()?;
        Ok((Tensors { info }, 8 + len))
    }

    /// The offset of the tensor's f16 data in `data`, checked against the
    /// expected shape.
    fn at(&self, data: &[u8], name: &str, shape: &[usize]) -> Result<usize, String> {
        let t = self
            .info
            .get(name)
            .ok_or_else(|| format!("the model has no tensor {name}"))?;
        if t.dtype != "F16" || t.shape != shape {
            return Err(format!(
                "{name} is {} {:?}, not F16 {shape:?}",
                t.dtype, t.shape
            ));
        }
        let [a, b] = t.data_offsets;
        if b < a || b > data.len() || b - a != 2 * shape.iter().product::<usize>() || a % 2 != 0 {
            return Err(format!("{name} runs past the model file's end"));
        }
        Ok(a)
    }

    fn f32(&self, data: &[u8], name: &str, shape: &[usize]) -> Result<Vec<f32>, String> {
        let at = self.at(data, name, shape)?;
        Ok(widen(&data[at..at + 2 * shape.iter().product::<usize>()]).collect())
    }

    fn linear(
        &self,
        data: &[u8],
        name: &str,
        inputs: usize,
        outputs: usize,
    ) -> Result<Linear, String> {
        Ok(Linear {
            weight: self.at(data, &format!("{name}.weight"), &[outputs, inputs])?,
            bias: self.f32(data, &format!("{name}.bias"), &[outputs])?,
            inputs,
            outputs,
        })
    }

    fn norm(&self, data: &[u8], name: &str) -> Result<Norm, String> {
        Ok(Norm {
            gain: self.f32(data, &format!("{name}.weight"), &[HIDDEN])?,
            bias: self.f32(data, &format!("{name}.bias"), &[HIDDEN])?,
        })
    }
}

impl Bert {
    /// From the shipped f16 safetensors file's bytes (kept: the matrices
    /// are read in place).
    pub fn from_safetensors(mut bytes: Vec<u8>, vocab_size: usize) -> Result<Bert, String> {
        let (t, start) = Tensors::parse(&bytes)?;
        bytes.drain(..start);
        let data = bytes;
        let d = &data;
        let max_positions = t
            .info
            .get("embeddings.position_embeddings.weight")
            .and_then(|i| i.shape.first().copied())
            .ok_or("the model has no position embeddings")?;
        let layers = (0..LAYERS)
            .map(|i| {
                let p = format!("encoder.layer.{i}.");
                Ok(Layer {
                    query: t.linear(d, &format!("{p}attention.self.query"), HIDDEN, HIDDEN)?,
                    key: t.linear(d, &format!("{p}attention.self.key"), HIDDEN, HIDDEN)?,
                    value: t.linear(d, &format!("{p}attention.self.value"), HIDDEN, HIDDEN)?,
                    attn_out: t.linear(d, &format!("{p}attention.output.dense"), HIDDEN, HIDDEN)?,
                    attn_norm: t.norm(d, &format!("{p}attention.output.LayerNorm"))?,
                    up: t.linear(d, &format!("{p}intermediate.dense"), HIDDEN, FFN)?,
                    down: t.linear(d, &format!("{p}output.dense"), FFN, HIDDEN)?,
                    out_norm: t.norm(d, &format!("{p}output.LayerNorm"))?,
                })
            })
            .collect::<Result<Vec<Layer>, String>>()?;
        Ok(Bert {
            words: t.at(
                d,
                "embeddings.word_embeddings.weight",
                &[vocab_size, HIDDEN],
            )?,
            positions: t.f32(
                d,
                "embeddings.position_embeddings.weight",
                &[max_positions, HIDDEN],
            )?,
            token_type: t.f32(d, "embeddings.token_type_embeddings.weight", &[2, HIDDEN])?,
            embed_norm: t.norm(d, "embeddings.LayerNorm")?,
            layers,
            max_positions,
            data,
        })
    }

    /// Mean of the last layer's token states, L2-normalised. `ids` holds
    /// `[CLS] … [SEP]`, at most `max_positions` of them, each below the
    /// vocabulary size.
    pub fn embed(&self, ids: &[u32]) -> Vec<f32> {
        let n = ids.len().min(self.max_positions);
        let mut x = vec![0f32; n * HIDDEN];
        for (t, &id) in ids[..n].iter().enumerate() {
            let row = &self.data[self.words + id as usize * HIDDEN * 2..][..HIDDEN * 2];
            let pos = &self.positions[t * HIDDEN..][..HIDDEN];
            for ((v, w), (p, ty)) in x[t * HIDDEN..][..HIDDEN]
                .iter_mut()
                .zip(widen(row))
                .zip(pos.iter().zip(&self.token_type))
            {
                *v = w + p + ty;
            }
        }
        layer_norm(&mut x, &self.embed_norm);
        let mut s = Scratch::new(n);
        for layer in &self.layers {
            layer.forward(&self.data, &mut x, n, &mut s);
        }
        let mut mean = vec![0f32; HIDDEN];
        for row in x.chunks_exact(HIDDEN) {
            for (m, v) in mean.iter_mut().zip(row) {
                *m += v;
            }
        }
        let norm = mean.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
        mean.iter_mut().for_each(|v| *v /= norm);
        mean
    }
}

/// Buffers of one forward pass.
struct Scratch {
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    ctx: Vec<f32>,
    scores: Vec<f32>,
    h: Vec<f32>,
    ffn: Vec<f32>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            q: vec![0.0; n * HIDDEN],
            k: vec![0.0; n * HIDDEN],
            v: vec![0.0; n * HIDDEN],
            ctx: vec![0.0; n * HIDDEN],
            scores: vec![0.0; n * n],
            h: vec![0.0; n * HIDDEN],
            ffn: vec![0.0; n * FFN],
        }
    }
}

impl Layer {
    fn forward(&self, data: &[u8], x: &mut [f32], n: usize, s: &mut Scratch) {
        self.query.apply(data, x, n, &mut s.q);
        self.key.apply(data, x, n, &mut s.k);
        self.value.apply(data, x, n, &mut s.v);
        let scale = 1.0 / (HEAD as f32).sqrt();
        for h in 0..HEADS {
            let off = h * HEAD;
            // scores = softmax(Q_h K_hᵀ / √d); ctx_h = scores V_h
            for r in 0..n {
                let q = &s.q[r * HIDDEN + off..][..HEAD];
                let row = &mut s.scores[r * n..][..n];
                for (c, score) in row.iter_mut().enumerate() {
                    let k = &s.k[c * HIDDEN + off..][..HEAD];
                    *score = scale * q.iter().zip(k).map(|(a, b)| a * b).sum::<f32>();
                }
                softmax(row);
                let ctx = &mut s.ctx[r * HIDDEN + off..][..HEAD];
                ctx.fill(0.0);
                for (c, &p) in row.iter().enumerate() {
                    let v = &s.v[c * HIDDEN + off..][..HEAD];
                    for (o, v) in ctx.iter_mut().zip(v) {
                        *o += p * v;
                    }
                }
            }
        }
        self.attn_out.apply(data, &s.ctx, n, &mut s.h);
        for (a, b) in x.iter_mut().zip(&s.h) {
            *a += b;
        }
        layer_norm(x, &self.attn_norm);
        self.up.apply(data, x, n, &mut s.ffn);
        s.ffn.iter_mut().for_each(|v| *v = gelu(*v));
        self.down.apply(data, &s.ffn, n, &mut s.h);
        for (a, b) in x.iter_mut().zip(&s.h) {
            *a += b;
        }
        layer_norm(x, &self.out_norm);
    }
}

impl Linear {
    /// `out = x Wᵀ + b` for `n` rows.
    fn apply(&self, data: &[u8], x: &[f32], n: usize, out: &mut [f32]) {
        let (i, o) = (self.inputs, self.outputs);
        assert!(x.len() >= n * i && out.len() >= n * o && i % 8 == 0 && o % 4 == 0);
        let w = &data[self.weight..][..2 * i * o];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("f16c")
        {
            // SAFETY: the features are detected just above; the lengths
            // are asserted.
            unsafe { x86::linear(w, &self.bias, x, n, i, o, out) };
            return;
        }
        // Elsewhere: the f16 rows widened a block at a time, then a plain
        // matrix product.
        const BLOCK: usize = 64;
        let mut wide = vec![0f32; BLOCK * i];
        for j0 in (0..o).step_by(BLOCK) {
            let rows = BLOCK.min(o - j0);
            for (d, s) in wide
                .iter_mut()
                .zip(widen(&w[2 * j0 * i..2 * (j0 + rows) * i]))
            {
                *d = s;
            }
            for r in 0..n {
                let xr = &x[r * i..][..i];
                for j in 0..rows {
                    let wr = &wide[j * i..][..i];
                    out[r * o + j0 + j] =
                        self.bias[j0 + j] + xr.iter().zip(wr).map(|(a, b)| a * b).sum::<f32>();
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// Horizontal sum of eight lanes.
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn sum(v: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
        _mm_cvtss_f32(s)
    }

    /// `out[r][j] = b[j] + Σ x[r][k] w[j][k]`, `w` f16 bits (`o × i`, LE),
    /// four outputs (widened once into `wide`) by two rows at a time.
    ///
    /// # Safety
    /// AVX2, FMA and F16C must be available; `w` holds `2·o·i` bytes, `x`
    /// `n·i` floats, `out` `n·o`; `i % 8 == 0`, `o % 4 == 0`.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn linear(
        w: &[u8],
        b: &[f32],
        x: &[f32],
        n: usize,
        i: usize,
        o: usize,
        out: &mut [f32],
    ) {
        let mut wide = vec![0f32; 4 * i];
        let xp = x.as_ptr();
        // SAFETY (whole body): every pointer stays within the slices, by
        // the sizes the caller guarantees.
        unsafe {
            for j in (0..o).step_by(4) {
                let src = w.as_ptr().add(2 * j * i) as *const __m128i;
                for k in (0..4 * i).step_by(8) {
                    let h = _mm_loadu_si128(src.add(k / 8));
                    _mm256_storeu_ps(wide.as_mut_ptr().add(k), _mm256_cvtph_ps(h));
                }
                let wp = wide.as_ptr();
                let mut r = 0;
                while r + 2 <= n {
                    let mut acc = [_mm256_setzero_ps(); 8];
                    for k in (0..i).step_by(8) {
                        let x0 = _mm256_loadu_ps(xp.add(r * i + k));
                        let x1 = _mm256_loadu_ps(xp.add((r + 1) * i + k));
                        for q in 0..4 {
                            let wv = _mm256_loadu_ps(wp.add(q * i + k));
                            acc[q] = _mm256_fmadd_ps(x0, wv, acc[q]);
                            acc[4 + q] = _mm256_fmadd_ps(x1, wv, acc[4 + q]);
                        }
                    }
                    for q in 0..4 {
                        out[r * o + j + q] = b[j + q] + sum(acc[q]);
                        out[(r + 1) * o + j + q] = b[j + q] + sum(acc[4 + q]);
                    }
                    r += 2;
                }
                if r < n {
                    let mut acc = [_mm256_setzero_ps(); 4];
                    for k in (0..i).step_by(8) {
                        let x0 = _mm256_loadu_ps(xp.add(r * i + k));
                        for (q, a) in acc.iter_mut().enumerate() {
                            let wv = _mm256_loadu_ps(wp.add(q * i + k));
                            *a = _mm256_fmadd_ps(x0, wv, *a);
                        }
                    }
                    for q in 0..4 {
                        out[r * o + j + q] = b[j + q] + sum(acc[q]);
                    }
                }
            }
        }
    }
}

fn layer_norm(x: &mut [f32], norm: &Norm) {
    for row in x.chunks_exact_mut(HIDDEN) {
        let mean = row.iter().sum::<f32>() / HIDDEN as f32;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / HIDDEN as f32;
        let inv = 1.0 / (var + EPS).sqrt();
        for ((v, g), b) in row.iter_mut().zip(&norm.gain).zip(&norm.bias) {
            *v = (*v - mean) * inv * g + b;
        }
    }
}

fn softmax(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in row.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    row.iter_mut().for_each(|v| *v /= sum);
}

/// GELU with the error function, as BERT uses it.
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2))
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
fn erf(x: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_4 * t - 1.453_152_1) * t) + 1.421_413_7) * t - 0.284_496_72) * t
            + 0.254_829_6)
            * t
            * (-x * x).exp();
    y.copysign(x)
}
