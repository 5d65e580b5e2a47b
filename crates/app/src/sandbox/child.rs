//! The child side: `arbiter __convert-document --heap BYTES --stack BYTES`.
//! Reads a [`Target`] as one JSON line and then the file's bytes from
//! stdin; writes one JSON [`Answer`] to stdout and exits 0. A panic prints
//! one line; one the converter does not catch ends the conversion thread
//! and the child exits [`EXIT_PANIC`]; a heap past its budget exits
//! [`crate::heap::EXIT_OVER_BUDGET`].

use std::io::{Read, Write};
use std::process::ExitCode;

use serde::{Deserialize, Serialize};

use crate::corpus::import::{Converted, ImportError, MAX_IMPORT_BYTES, Target};
use crate::corpus::{Corpus, DocumentKind, GameManifest, Glossary, SourceDocument, SourceGame};

use super::Sandboxed;

/// Exit status of a child whose conversion panicked.
pub const EXIT_PANIC: i32 = 70;
/// Exit status of a child given input it cannot read (ours to fix).
pub const EXIT_USAGE: i32 = 72;

/// What the child writes on stdout.
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum Answer {
    Converted(Box<Sandboxed>),
    Refused(ImportError),
}

/// Runs a conversion as the child process; `args` are those after the
/// subcommand's name.
pub fn child_main(args: &[String]) -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("panic");
        let at = info
            .location()
            .map_or_else(String::new, |l| format!(" at {}:{}", l.file(), l.line()));
        // Said, then unwound: a reader that catches its parser's panic
        // (the PDF reader, which then refuses the file as damaged in
        // plain words) goes on; any other ends the conversion thread, and
        // the child exits with EXIT_PANIC below. Exiting here made every
        // caught panic a crash ("nests too deeply or is malformed" for a
        // truncated PDF, found by an outside tester).
        eprintln!("converter panicked{at}: {what}");
    }));
    let (Some(heap), Some(stack)) = (flag(args, "--heap"), flag(args, "--stack")) else {
        eprintln!(
            "usage: arbiter {} --heap BYTES --stack BYTES",
            super::CHILD_COMMAND
        );
        return ExitCode::from(EXIT_USAGE as u8);
    };
    crate::heap::limit(heap);
    let Some((target, bytes)) = read_request() else {
        eprintln!("the request on stdin is not a target line followed by the file");
        return ExitCode::from(EXIT_USAGE as u8);
    };
    let worker = std::thread::Builder::new()
        .name("convert".into())
        .stack_size(stack)
        .spawn(move || answer(&target, &bytes));
    let Ok(Ok(answer)) = worker.map(|w| w.join()) else {
        eprintln!("the conversion thread could not run");
        return ExitCode::from(EXIT_PANIC as u8);
    };
    let mut out = std::io::stdout().lock();
    let written = serde_json::to_writer(&mut out, &answer).is_ok() && out.flush().is_ok();
    if written {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_USAGE as u8)
    }
}

fn flag(args: &[String], name: &str) -> Option<usize> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1)?.parse().ok()
}

/// The target line and the file's bytes (at most one byte more than
/// allowed, so that an oversized file is refused as such).
fn read_request() -> Option<(Target, Vec<u8>)> {
    let mut input = Vec::new();
    let most = (MAX_IMPORT_BYTES + 64 * 1024) as u64;
    std::io::stdin()
        .lock()
        .take(most)
        .read_to_end(&mut input)
        .ok()?;
    let newline = input.iter().position(|&b| b == b'\n')?;
    let target = serde_json::from_slice(&input[..newline]).ok()?;
    input.drain(..=newline);
    Some((target, input))
}

fn answer(target: &Target, bytes: &[u8]) -> Answer {
    let converted = match target.kind {
        DocumentKind::Cards => crate::cards::import_to(target, bytes),
        DocumentKind::Slang => crate::corpus::slang::import_to(target, bytes),
        _ => crate::corpus::import::convert_to(target, bytes),
    };
    match converted {
        Ok(converted) => {
            let index_bytes = index_bytes(target, &converted);
            Answer::Converted(Box::new(Sandboxed {
                converted,
                index_bytes,
            }))
        }
        Err(e) => Answer::Refused(e),
    }
}

/// Heap bytes the document's corpus, search index and cards keep once
/// built, as the server will build them (after a warm-up build, so that
/// the word lists and patterns built once per process are not counted).
fn index_bytes(target: &Target, converted: &Converted) -> usize {
    let warm = Corpus::build(vec![game(target, converted, "# A\n\n1. B b.\n".into())]);
    drop(crate::search::Index::build(&warm));
    let ((corpus, index, cards), bytes) = crate::heap::retained(|| {
        let corpus = Corpus::build(vec![game(target, converted, converted.text.clone())]);
        let index = crate::search::Index::build(&corpus);
        let cards = crate::cards::Cards::build(&corpus.card_lists);
        (corpus, index, cards)
    });
    drop((corpus, index, cards));
    bytes
}

fn game(target: &Target, converted: &Converted, text: String) -> SourceGame {
    SourceGame {
        manifest: GameManifest {
            game: target.game.clone(),
            name: target.game_name.clone(),
            aliases: Vec::new(),
            glossary: None,
            documents: vec![converted.manifest.clone()],
        },
        glossary: Glossary::default(),
        documents: vec![SourceDocument {
            manifest: converted.manifest.clone(),
            text,
        }],
    }
}
