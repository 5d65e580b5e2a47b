//! Reads rule data from disk: `rules_data/<game>/manifest.yaml`, its glossary
//! and its documents. This is the only place the corpus touches files.

use std::path::{Path, PathBuf};

use crate::corpus::{GameManifest, Glossary, SourceDocument, SourceGame};
use crate::engine::document;

/// Why rule data could not be read. Always names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 { path: PathBuf, offset: usize },
    #[error("{path}: {message}")]
    Manifest { path: PathBuf, message: String },
    #[error("{path} holds no manifest.yaml and no game folders with one")]
    Empty { path: PathBuf },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} {why}; choose a new or empty --out folder (nothing was written)")]
    OutTaken { path: PathBuf, why: &'static str },
}

/// The folder of rule data shipped with Arbiter: `$ARBITER_DATA`, else
/// `./rules_data`, else `rules_data` beside the executable, else the source
/// tree's (for `cargo run` from anywhere).
pub fn default_data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ARBITER_DATA") {
        return PathBuf::from(dir);
    }
    let cwd = PathBuf::from("rules_data");
    if cwd.join("ashes").is_dir() || cwd.is_dir() {
        return cwd;
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|p| p.join("rules_data")))
        && dir.is_dir()
    {
        return dir;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules_data"))
}

/// Loads every game under `dir`: either `dir` is one game (it holds a
/// `manifest.yaml`) or each sub-folder with a manifest is a game.
pub fn load_dir(dir: &Path) -> Result<Vec<SourceGame>, LoadError> {
    if dir.join("manifest.yaml").is_file() {
        return Ok(vec![load_game(dir)?]);
    }
    let entries = std::fs::read_dir(dir).map_err(|source| LoadError::Io {
        path: dir.into(),
        source,
    })?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("manifest.yaml").is_file())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(LoadError::Empty { path: dir.into() });
    }
    dirs.iter().map(|d| load_game(d)).collect()
}

/// Loads the shipped data plus any extra folders (house rules, other games).
pub fn load_all(data_dir: &Path, extra: &[PathBuf]) -> Result<Vec<SourceGame>, LoadError> {
    let mut games = load_dir(data_dir)?;
    for dir in extra {
        games.extend(load_dir(dir)?);
    }
    Ok(games)
}

/// Loads one game folder.
pub fn load_game(dir: &Path) -> Result<SourceGame, LoadError> {
    let manifest_path = dir.join("manifest.yaml");
    let text = read_text(&manifest_path)?;
    let manifest: GameManifest = document::parse_data(&text).map_err(|e| LoadError::Manifest {
        path: manifest_path.clone(),
        message: e.to_string(),
    })?;
    let glossary = match &manifest.glossary {
        Some(file) => {
            let path = dir.join(file);
            document::parse_data(&read_text(&path)?).map_err(|e| LoadError::Manifest {
                path,
                message: e.to_string(),
            })?
        }
        None => Glossary::default(),
    };
    let documents = manifest
        .documents
        .iter()
        .map(|d| {
            Ok(SourceDocument {
                manifest: d.clone(),
                text: read_text(&dir.join(&d.file))?,
            })
        })
        .collect::<Result<_, LoadError>>()?;
    Ok(SourceGame {
        manifest,
        glossary,
        documents,
    })
}

fn read_text(path: &Path) -> Result<String, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.into(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        path: path.into(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Writes an imported document as a rule-data folder `dir` (created if
/// missing): `manifest.yaml`, the document, an empty `glossary.yaml`.
/// Overwrites nothing: a file in the way (a user's own glossary or notes)
/// refuses the whole write, as does `dir` being a file.
pub fn write_import(dir: &Path, import: &crate::corpus::import::Import) -> Result<(), LoadError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| LoadError::Write { path, source }
    };
    let manifest_path = dir.join("manifest.yaml");
    let doc = import.document();
    let doc_path = dir.join(&doc.manifest.file);
    let glossary_path = dir.join("glossary.yaml");
    if dir.exists() && !dir.is_dir() {
        return Err(LoadError::OutTaken {
            path: dir.into(),
            why: "is a file, not a folder",
        });
    }
    if let Some(taken) = [&manifest_path, &doc_path, &glossary_path]
        .into_iter()
        .find(|p| p.exists())
    {
        return Err(LoadError::OutTaken {
            path: taken.clone(),
            why: "already exists and would be overwritten",
        });
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let manifest =
        serde_saphyr::to_string(&import.game.manifest).map_err(|e| LoadError::Manifest {
            path: manifest_path.clone(),
            message: e.to_string(),
        })?;
    std::fs::write(&doc_path, &doc.text).map_err(io(&doc_path))?;
    std::fs::write(&glossary_path, "synonyms: {}\n").map_err(io(&glossary_path))?;
    let header = format!(
        "# Imported by `arbiter import`; load with --rules-dir {}\n",
        dir.display()
    );
    std::fs::write(&manifest_path, header + &manifest).map_err(io(&manifest_path))
}
