//! Region files (`r.X.Z.mca`): the location table and chunk headers, checked before a
//! chunk is decompressed, so that a damaged file costs a counted skip and never a panic.

use super::SkipReason;
use super::inflate::inflate;

/// A region file's bytes sectors are counted in.
const SECTOR: usize = 4096;
/// The location table and the timestamp table.
const HEADER: usize = 2 * SECTOR;
/// The largest chunk payload accepted (the compressed bytes), far above what the game
/// writes in-line (it moves chunks over 1 MiB to external `.mcc` files).
const MAX_PAYLOAD: usize = 255 * SECTOR;

/// Why a region file cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RegionError {
    /// Shorter than its 8 KiB header.
    TruncatedHeader { len: usize },
}

impl std::fmt::Display for RegionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegionError::TruncatedHeader { len } => write!(
                f,
                "the file is {len} bytes long, shorter than a region file's 8192-byte header"
            ),
        }
    }
}

/// One region file held in memory.
pub(super) struct RegionFile<'a> {
    bytes: &'a [u8],
}

/// Where a chunk is stored inside the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Location {
    /// The chunk's slot: x and z within the region, 0..32.
    pub local_x: usize,
    /// See `local_x`.
    pub local_z: usize,
}

impl<'a> RegionFile<'a> {
    /// Reads the header of a region file.
    ///
    /// # Errors
    /// [`RegionError::TruncatedHeader`] when the file is too short to hold one.
    pub fn new(bytes: &'a [u8]) -> Result<Self, RegionError> {
        if bytes.len() < HEADER {
            return Err(RegionError::TruncatedHeader { len: bytes.len() });
        }
        Ok(Self { bytes })
    }

    /// The slots that hold a chunk, in file-table order (z major, as the game lays them out).
    pub fn locations(&self) -> impl Iterator<Item = Location> + '_ {
        (0..1024).filter_map(|i| {
            let entry = &self.bytes[i * 4..i * 4 + 4];
            (entry != [0, 0, 0, 0]).then_some(Location {
                local_x: i % 32,
                local_z: i / 32,
            })
        })
    }

    /// Checks the location entry and the chunk header of a slot (the sectors lie past the
    /// header and inside the file, the stored length fits the sectors, the compression is
    /// one the game writes in-line) and returns the compression type and the payload.
    fn payload(&self, at: Location) -> Result<(u8, &'a [u8]), SkipReason> {
        let i = (at.local_z * 32 + at.local_x) * 4;
        let entry = &self.bytes[i..i + 4];
        let offset =
            (usize::from(entry[0]) << 16 | usize::from(entry[1]) << 8) | usize::from(entry[2]);
        let sectors = usize::from(entry[3]);
        if offset < 2 || sectors == 0 {
            return Err(SkipReason::BadLocation);
        }
        let start = offset * SECTOR;
        let Some(head) = self.bytes.get(start..start + 5) else {
            return Err(SkipReason::Truncated);
        };
        let length = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        if length == 0 || length > MAX_PAYLOAD + 1 {
            return Err(SkipReason::BadLocation);
        }
        if 4 + length > sectors * SECTOR {
            return Err(SkipReason::BadLocation);
        }
        if start + 4 + length > self.bytes.len() {
            return Err(SkipReason::Truncated);
        }
        match head[4] {
            1..=4 => Ok((head[4], &self.bytes[start + 5..start + 4 + length])),
            129..=132 => Err(SkipReason::External),
            _ => Err(SkipReason::BadCompression),
        }
    }

    /// The decompressed NBT of the chunk at `at`.
    ///
    /// # Errors
    /// The [`SkipReason`] when the slot's entry or header is damaged, the payload does not
    /// decompress, or it decompresses to more than [`MAX_CHUNK_NBT`](super::MAX_CHUNK_NBT).
    pub fn read(&self, at: Location) -> Result<Vec<u8>, SkipReason> {
        let (scheme, payload) = self.payload(at)?;
        inflate(scheme, payload)
    }
}
