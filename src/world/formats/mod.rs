//! File formats: the layered text world ([`text`]), the robot grid ([`robot`]), the Moving AI
//! 2D benchmark maps and scenarios ([`movingai`]), and the maps and scenarios of the Moving
//! AI 3D voxel benchmark ([`movingai3d`]).
//!
//! Every parser reports errors as [`Error::Parse`] with a 1-based line and
//! column, and quotes at most 40 characters of the offending text.

pub mod movingai;
pub mod movingai3d;
pub mod robot;
pub mod text;

use crate::error::{Error, Result};
use crate::world::grid::check_side;

/// The whitespace-separated words of `line`, each with its 1-based character column.
pub(crate) fn words(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    // (character index, (byte index, character)): columns are counted as we go, so a long
    // row costs linear time.
    let mut rest = line.char_indices().enumerate().peekable();
    std::iter::from_fn(move || {
        while rest.next_if(|(_, (_, c))| c.is_whitespace()).is_some() {}
        let &(index, (start, _)) = rest.peek()?;
        let mut end = line.len();
        while let Some(&(_, (byte, c))) = rest.peek() {
            if c.is_whitespace() {
                end = byte;
                break;
            }
            rest.next();
        }
        Some((index + 1, &line[start..end]))
    })
}

/// `text` for an error message: at most 40 characters, marked when cut.
pub(crate) fn shorten(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Parses a grid side from the word `word` at `line`, `column`.
pub(crate) fn parse_side(line: usize, column: usize, name: &str, word: &str) -> Result<u32> {
    let value: u32 = word.parse().map_err(|_| {
        Error::parse(
            line,
            column,
            format!(
                "the {name} must be a whole number, found `{}`",
                shorten(word)
            ),
        )
    })?;
    check_side(name, value).map_err(|message| Error::parse(line, column, message))?;
    Ok(value)
}

/// Fails at the first non-blank line among `lines` (numbered from `first_line`): text after
/// the last row.
pub(crate) fn reject_trailing<'a>(
    lines: impl Iterator<Item = &'a str>,
    first_line: usize,
    rows: u32,
) -> Result<()> {
    for (offset, text) in lines.enumerate() {
        if let Some((column, _)) = words(text).next() {
            return Err(Error::parse(
                first_line + offset,
                column,
                format!("unexpected text after the last of the {rows} rows the header announces"),
            ));
        }
    }
    Ok(())
}
