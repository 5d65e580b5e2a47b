//! Passage vectors of the semantic stage for servers' uploaded documents
//! (`arbiter_passage_vectors`, migrations/0012_passage_vectors.sql): what
//! was embedded once is read back by a restart or another replica instead
//! of being embedded again. Content-addressed: keyed by the model and the
//! SHA-256 of the text embedded, whichever server uploaded it (a server
//! cannot choose a text whose key is another's); nothing here names a
//! server, and no command reads a vector back as text.

use sqlx::Row;

use super::{Store, StoreError};

/// Keys asked for in one query (well under SQLite's bound parameters).
const CHUNK: usize = 500;

impl Store {
    /// The stored vectors of `model` among `keys` (each the SHA-256, hex,
    /// of a text embedded), as raw bytes; keys with none are left out.
    pub async fn passage_vectors(
        &self,
        model: &str,
        keys: &[String],
    ) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let mut out = Vec::new();
        for part in keys.chunks(CHUNK) {
            let marks: Vec<String> = (0..part.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT text_sha256, vector FROM arbiter_passage_vectors \
                 WHERE model = $1 AND text_sha256 IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query(&sql).bind(model);
            for k in part {
                query = query.bind(k.as_str());
            }
            for row in query.fetch_all(&self.pool).await? {
                let key: String = row.try_get("text_sha256")?;
                let hex: String = row.try_get("vector")?;
                if let Some(bytes) = from_hex(&hex) {
                    out.push((key, bytes));
                }
            }
        }
        Ok(out)
    }

    /// Stores vectors of `model` (SHA-256 of the text embedded, raw bytes);
    /// a key already stored keeps its vector (the same text, embedded by
    /// the same model, embeds the same).
    pub async fn save_passage_vectors(
        &self,
        model: &str,
        vectors: &[(String, Vec<u8>)],
    ) -> Result<(), StoreError> {
        for part in vectors.chunks(CHUNK) {
            let mut tx = self.pool.begin().await?;
            for (key, bytes) in part {
                sqlx::query(
                    "INSERT INTO arbiter_passage_vectors (model, text_sha256, vector) \
                     VALUES ($1, $2, $3) ON CONFLICT (model, text_sha256) DO NOTHING",
                )
                .bind(model)
                .bind(key.as_str())
                .bind(to_hex(bytes))
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `None` for text that is not an even number of hex digits.
fn from_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_reads_back_what_it_wrote() {
        let bytes = vec![0u8, 1, 127, 128, 255];
        assert_eq!(super::from_hex(&super::to_hex(&bytes)), Some(bytes));
        assert_eq!(super::from_hex("0g"), None);
        assert_eq!(super::from_hex("abc"), None);
    }
}
