//! What every example does with its command line beyond parsing it (which `clap` does):
//! read input files with a size limit, make sure an output path can be written before the
//! work starts, and end with a one-line error and exit code 2.

use std::fs::File;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The most bytes an example reads from one input file: 256 MiB, far above any Moving AI map
/// or text world an example is meant for, and a bound on what a mistaken path such as
/// `/dev/zero` can make it read.
pub const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// A byte count for a person: whole mebibytes as `256 MiB`, anything else in bytes.
#[must_use]
pub fn describe_bytes(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Reads the file at `path` as text, at most `limit` bytes (use [`MAX_INPUT_BYTES`]); bytes
/// that are not UTF-8 become U+FFFD, so a parser names the line rather than the encoding.
///
/// # Errors
/// A message naming the path when it cannot be opened or read, or when it holds more than
/// `limit` bytes (then no more than `limit + 1` bytes are read).
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{} is larger than the limit of {} on input files",
            path.display(),
            describe_bytes(limit)
        ));
    }
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// An output file opened (created or truncated) before the work that fills it, so that a
/// path that cannot be written fails at once rather than after minutes of work.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    file: File,
}

impl Output {
    /// Creates (or truncates) the file at `path`.
    ///
    /// # Errors
    /// A message naming the path when it cannot be created.
    pub fn create(path: impl Into<PathBuf>) -> Result<Self, String> {
        let path = path.into();
        let file =
            File::create(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Self { path, file })
    }

    /// The path it was created at.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path and the open file, to write into.
    #[must_use]
    pub fn into_parts(self) -> (PathBuf, File) {
        (self.path, self.file)
    }
}

/// The end of every example's `main`: success, or `program: message` on stderr and exit
/// code 2 (bad input, or work that could not be done).
pub fn finish(program: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{program}: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_stops_one_byte_past_the_limit() {
        let dir = std::env::temp_dir().join(format!("voxnav-support-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ten.txt");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_text(&path, 10).unwrap(), "0123456789");
        let error = read_text(&path, 9).unwrap_err();
        assert!(error.contains("limit of 9 bytes"), "{error}");
        assert_eq!(describe_bytes(MAX_INPUT_BYTES), "256 MiB");
        assert!(
            read_text(&dir.join("missing"), 10)
                .unwrap_err()
                .contains("cannot read")
        );
        assert!(Output::create(dir.join("no/such/dir/x.png")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_endless_input_is_cut_at_the_limit() {
        if Path::new("/dev/zero").exists() {
            let error = read_text(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert!(error.contains("larger than the limit of 1 MiB"), "{error}");
        }
    }
}
