//! Profiling aid: judges one example board N times (for callgrind).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map(String::as_str).unwrap_or("ashes");
    let path = args.get(2).cloned().unwrap_or_default();
    let mode = args.get(3).map(String::as_str).unwrap_or("judge");
    let n: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(&path).expect("board file");
    let engine = arbiter::engine::engine(game).expect("registered");
    let _ = engine.judge_text(&text);
    for _ in 0..n {
        if mode == "parse" {
            std::hint::black_box(arbiter::engine::document::parse_value(&text)).ok();
        } else {
            std::hint::black_box(engine.judge_text(&text)).ok();
        }
    }
}
