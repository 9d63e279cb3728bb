//! Bounded decompression of one chunk's payload: gzip, zlib, uncompressed or LZ4, never more
//! than a limit (at most [`MAX_CHUNK_NBT`]) bytes out, so that a small payload that inflates
//! to gigabytes (a compression bomb) costs a counted skip, not the memory and time to inflate
//! it. The bytes inflated are returned with the answer, so that the loader can cap what a
//! region file and a whole load inflate.

use std::io::{ErrorKind, Read};

use flate2::read::{GzDecoder, ZlibDecoder};

use super::{MAX_CHUNK_NBT, SkipReason};

/// The compression types the game writes in-line (types 129 to 132 are external `.mcc`).
const GZIP: u8 = 1;
const ZLIB: u8 = 2;
const UNCOMPRESSED: u8 = 3;
const LZ4: u8 = 4;

/// The decompressed NBT of a chunk stored with compression type `scheme`, at most
/// `limit.min(MAX_CHUNK_NBT)` bytes of it, and the bytes inflated to find out.
///
/// The NBT is [`SkipReason::TooLarge`] when it would exceed that many bytes,
/// [`SkipReason::BadCompression`] for an unknown type or a payload that does not decompress.
pub(super) fn inflate(
    scheme: u8,
    payload: &[u8],
    limit: usize,
) -> (Result<Vec<u8>, SkipReason>, usize) {
    let limit = limit.min(MAX_CHUNK_NBT);
    match scheme {
        GZIP => bounded(GzDecoder::new(payload), limit),
        ZLIB => bounded(ZlibDecoder::new(payload), limit),
        UNCOMPRESSED if payload.len() > limit => (Err(SkipReason::TooLarge), 0),
        UNCOMPRESSED => (Ok(payload.to_vec()), payload.len()),
        LZ4 => match lz4_declared_size_ok(payload, limit) {
            Ok(()) => bounded(lz4_java_wrc::Lz4BlockInput::new(payload), limit),
            Err(reason) => (Err(reason), 0),
        },
        _ => (Err(SkipReason::BadCompression), 0),
    }
}

/// Reads `decoder` to its end, or refuses once it yields more than `limit` bytes: the output
/// (and the work) stop at the cap whatever the stream claims. Read piece by piece rather
/// than with `read_to_end`, which doubles a full buffer before it knows whether more comes,
/// and so would hold twice the cap. Returns the bytes inflated along with the answer.
fn bounded(mut decoder: impl Read, limit: usize) -> (Result<Vec<u8>, SkipReason>, usize) {
    let mut nbt = Vec::new();
    let mut piece = [0u8; 16 * 1024];
    loop {
        let read = match decoder.read(&mut piece) {
            Ok(0) => {
                let inflated = nbt.len();
                return (Ok(nbt), inflated);
            }
            Ok(read) => read,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return (Err(SkipReason::BadCompression), nbt.len()),
        };
        if nbt.len() + read > limit {
            return (Err(SkipReason::TooLarge), nbt.len() + read);
        }
        nbt.extend_from_slice(&piece[..read]);
    }
}

/// The length of an LZ4 block header in the stream format the game writes (Java's
/// `LZ4BlockOutputStream`): the magic `LZ4Block`, a token (method and block size), the
/// compressed and decompressed lengths (little-endian `u32`) and a checksum.
const LZ4_HEADER: usize = 21;
const LZ4_MAGIC: &[u8; 8] = b"LZ4Block";

/// Walks the block headers of an LZ4 payload and refuses it when a block's size class or the
/// sum of the decompressed lengths exceeds [`MAX_CHUNK_NBT`] or `limit`: the decoder
/// allocates a whole block (up to 32 MiB) before checking it, so the sizes are checked
/// before decoding. A malformed header stops the walk and is left to the decoder, which
/// refuses it.
fn lz4_declared_size_ok(payload: &[u8], limit: usize) -> Result<(), SkipReason> {
    let mut at = 0usize;
    let mut total = 0usize;
    while let Some(header) = at
        .checked_add(LZ4_HEADER)
        .and_then(|end| payload.get(at..end))
    {
        if &header[..8] != LZ4_MAGIC {
            break;
        }
        let block_size = 1usize << (10 + (header[8] & 0x0f));
        let compressed = u32::from_le_bytes([header[9], header[10], header[11], header[12]]);
        let decompressed = u32::from_le_bytes([header[13], header[14], header[15], header[16]]);
        if decompressed == 0 {
            // The end mark: the decoder stops here.
            break;
        }
        total = total.saturating_add(decompressed as usize);
        if block_size > MAX_CHUNK_NBT || total > limit {
            return Err(SkipReason::TooLarge);
        }
        at = at.saturating_add(LZ4_HEADER + compressed as usize);
    }
    Ok(())
}
