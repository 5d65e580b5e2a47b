//! Pictures on replies: which match replies carry a picture of the board
//! (drawn by `render::pictures`), and the follow-up that brings a picture
//! to a reply sent at once (an interaction response cannot carry a file on
//! the HTTP endpoint: Discord takes files as multipart only on its API).

use super::reply::{Action, Button, ButtonStyle, PictureFile, Reply};
use crate::app::matches::MatchReply;
use crate::render::pictures;

/// The picture a match reply carries: the board of a match view (start,
/// setup, board, end) and, for a recorded play or answer, the board after
/// it with what changed marked.
pub fn of_match(reply: &MatchReply) -> Option<PictureFile> {
    let drawn = match reply {
        // An ended match's picture says its result, not the board's last turn.
        MatchReply::Match(v) => pictures::of_match(&v.game, v.board.as_ref()?, v.ending().as_ref()),
        MatchReply::Event(e) => match &e.ruling {
            Some(ruling) => pictures::event(
                ruling,
                &e.board,
                &e.changes,
                e.play.as_ref(),
                e.result.as_ref(),
            ),
            // An end the players agreed to (no ruling of its own): the
            // final board with the result, as a concession's reply shows it.
            None if e.result.is_some() => {
                pictures::of_match(e.board.get("game")?.as_str()?, &e.board, e.result.as_ref())
            }
            None => return None,
        },
        _ => return None,
    };
    match drawn {
        Ok(p) => Some(PictureFile::of(p)),
        Err(e) => {
            tracing::debug!("no picture for the match reply: {e}");
            None
        }
    }
}

/// [`of_match`] on the CPU pool (drawing takes milliseconds, not for the
/// async workers); no picture when the pool has no room in time.
pub async fn of_match_pooled(reply: &MatchReply) -> Option<PictureFile> {
    if !matches!(reply, MatchReply::Match(_) | MatchReply::Event(_)) {
        return None;
    }
    let owned = reply.clone();
    match crate::app::cpu::run(move || of_match(&owned)).await {
        Ok(p) => p,
        Err(e) => {
            tracing::debug!("no picture for the match reply: {e}");
            None
        }
    }
}

/// Whether the match's replies carry their picture (`match pictures on`,
/// the default); off, a "Picture" button stands in for it.
pub fn wanted(reply: &MatchReply) -> bool {
    match reply {
        MatchReply::Match(v) => v.pictures,
        MatchReply::Event(e) => e.pictures,
        _ => false,
    }
}

/// The picture of a reply, if it carries one.
pub fn of_reply(reply: &Reply) -> Option<&PictureFile> {
    match reply {
        Reply::Message(m) | Reply::Update(m) => m.picture.as_ref(),
        _ => None,
    }
}

/// The "Picture" button of a match reply that carries no picture itself
/// (a note, an adjustment, an undo, a phase advanced, a log page): showing
/// the board on each would be noise, so it is one press away.
pub fn button(reply: &MatchReply) -> Option<Button> {
    let match_id = match reply {
        MatchReply::Event(e) if (e.ruling.is_none() && e.result.is_none()) || !e.pictures => {
            e.match_id
        }
        MatchReply::Match(v) if !v.pictures && v.board.is_some() => v.match_id,
        MatchReply::Log(l) => l.match_id,
        _ => return None,
    };
    Some(Button::new(
        "Picture",
        Action::Picture { match_id },
        ButtonStyle::Secondary,
    ))
}
