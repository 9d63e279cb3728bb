//! File formats: the layered text world ([`text`]), the robot grid ([`robot`]), the Moving AI
//! 2D benchmark maps and scenarios ([`movingai`]), and the maps and scenarios of the Moving
//! AI 3D voxel benchmark ([`movingai3d`]).
//!
//! Every parser reports errors as [`Error::Parse`] with a 1-based line and
//! column, and quotes at most 40 characters of the offending text. Every parser accepts (and
//! skips) a UTF-8 byte-order mark at the start of its text, as editors on Windows write one.
//!
//! The `load_*` functions read a file with [`read_text_file`], which refuses files larger than
//! [`MAX_FILE_BYTES`]: read a larger file yourself and hand its text to the `parse_*`
//! function.

pub mod movingai;
pub mod movingai3d;
pub mod robot;
pub mod text;

use std::io::Read as _;
use std::path::Path;

use crate::error::{Error, Result};
use crate::world::grid::check_side;

/// The most bytes the `load_*` functions read from one file: 256 MiB. More than any world,
/// map or scenario file voxnav writes or ships with, and little enough that a wrong path (a
/// device such as `/dev/zero`, a huge log) fails in a moment instead of filling memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads the UTF-8 text file at `path`, at most `limit` bytes.
///
/// ```
/// use voxnav::world::formats::{MAX_FILE_BYTES, read_text_file};
/// let err = read_text_file("/no/such/file.txt", MAX_FILE_BYTES).unwrap_err();
/// assert!(matches!(err, voxnav::Error::Io { .. }));
/// ```
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or read or is not UTF-8 text,
/// [`Error::FileTooLarge`] when it holds more than `limit` bytes (found without reading it
/// all: a regular file by its length, anything else after `limit + 1` bytes).
pub fn read_text_file(path: impl AsRef<Path>, limit: u64) -> Result<String> {
    let path = path.as_ref();
    let bytes = read_file(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        Error::io(
            path,
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8 text (an invalid byte at offset {offset})"),
            ),
        )
    })
}

/// The bytes of the file at `path`, at most `limit` of them.
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or read, [`Error::FileTooLarge`] when it holds
/// more than `limit` bytes (a regular file is judged by its length before anything is read;
/// anything else, such as a device or a pipe, after `limit + 1` bytes).
pub fn read_file(path: impl AsRef<Path>, limit: u64) -> Result<Vec<u8>> {
    let path = path.as_ref();
    let too_large = || Error::FileTooLarge {
        path: path.display().to_string(),
        limit,
    };
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    if file
        .metadata()
        .is_ok_and(|meta| meta.is_file() && meta.len() > limit)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// `text` without the UTF-8 byte-order mark it may start with.
pub(crate) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

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
