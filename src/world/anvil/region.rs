//! Region files (`r.X.Z.mca`): the location table and chunk headers, checked before a
//! chunk is decompressed, so that a damaged file costs a counted skip and never a panic.
//!
//! A region file is read through [`Read`] and [`Seek`]: the 8 KiB header first, then only
//! the sectors a chunk's entry points at, one chunk at a time. A file of the largest size
//! accepted that holds a few chunks costs a few reads of their sectors, not a read of the
//! whole file (a sparse 1 GiB file holding 8 KB of data was read whole, 1 GB resident).

use std::io::{Read, Seek, SeekFrom};

use super::SkipReason;
use super::inflate::inflate;

/// A region file's bytes sectors are counted in.
const SECTOR: usize = 4096;
/// The location table and the timestamp table.
const HEADER: usize = 2 * SECTOR;
/// The chunk slots of a region: 32 x 32.
const SLOTS: usize = 1024;
/// The largest chunk payload accepted (the compressed bytes), far above what the game
/// writes in-line (it moves chunks over 1 MiB to external `.mcc` files).
const MAX_PAYLOAD: usize = 255 * SECTOR;

/// Why a region file cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RegionError {
    /// Shorter than its 8 KiB header.
    TruncatedHeader { len: u64 },
    /// Reading the header failed.
    Unreadable(String),
}

impl std::fmt::Display for RegionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegionError::TruncatedHeader { len } => write!(
                f,
                "the file is {len} bytes long, shorter than a region file's 8192-byte header"
            ),
            RegionError::Unreadable(why) => write!(f, "cannot read the region header: {why}"),
        }
    }
}

/// One region file: its header in memory, its chunks read on demand from `source`.
pub(super) struct RegionFile<R> {
    source: R,
    /// The length of the file in bytes.
    len: u64,
    header: Vec<u8>,
    /// The slots whose sectors overlap another slot's: refused, since one payload stored
    /// once and pointed at by many slots would be inflated once per slot.
    shared: Vec<bool>,
    /// The bytes read from `source` so far.
    bytes_read: u64,
    /// The sectors of the chunk being read, reused from chunk to chunk.
    sectors: Vec<u8>,
}

/// Where a chunk is stored inside the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Location {
    /// The chunk's slot: x and z within the region, 0..32.
    pub local_x: usize,
    /// See `local_x`.
    pub local_z: usize,
}

impl Location {
    fn slot(self) -> usize {
        self.local_z * 32 + self.local_x
    }
}

/// A chunk read from a region file: its NBT or why not, and the bytes inflated to find out
/// (charged to the load's inflation budgets whether or not the chunk was usable).
pub(super) struct ReadChunk {
    pub nbt: Result<Vec<u8>, SkipReason>,
    pub inflated: u64,
}

impl<R: Read + Seek> RegionFile<R> {
    /// Reads the header of a region file and checks which slots share sectors.
    ///
    /// # Errors
    /// [`RegionError::TruncatedHeader`] when the file is too short to hold one,
    /// [`RegionError::Unreadable`] when reading it fails.
    pub fn new(mut source: R) -> Result<Self, RegionError> {
        let unreadable = |e: std::io::Error| RegionError::Unreadable(e.to_string());
        let len = source.seek(SeekFrom::End(0)).map_err(unreadable)?;
        if len < HEADER as u64 {
            return Err(RegionError::TruncatedHeader { len });
        }
        source.seek(SeekFrom::Start(0)).map_err(unreadable)?;
        let mut header = vec![0u8; HEADER];
        source.read_exact(&mut header).map_err(unreadable)?;
        let mut region = Self {
            source,
            len,
            header,
            shared: vec![false; SLOTS],
            bytes_read: HEADER as u64,
            sectors: Vec::new(),
        };
        region.find_shared_sectors();
        Ok(region)
    }

    /// The bytes read from the file so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The first sector and the sector count of a slot's entry.
    fn entry(&self, slot: usize) -> (usize, usize) {
        let entry = &self.header[slot * 4..slot * 4 + 4];
        let offset =
            (usize::from(entry[0]) << 16 | usize::from(entry[1]) << 8) | usize::from(entry[2]);
        (offset, usize::from(entry[3]))
    }

    /// Marks every slot whose sectors overlap another slot's.
    fn find_shared_sectors(&mut self) {
        let mut ranges: Vec<(usize, usize, usize)> = (0..SLOTS)
            .map(|slot| {
                let (offset, sectors) = self.entry(slot);
                (offset, offset + sectors, slot)
            })
            .filter(|&(start, end, _)| start >= 2 && end > start)
            .collect();
        ranges.sort_unstable();
        for (i, &(_, end, slot)) in ranges.iter().enumerate() {
            for &(other_start, _, other) in &ranges[i + 1..] {
                if other_start >= end {
                    break;
                }
                self.shared[slot] = true;
                self.shared[other] = true;
            }
        }
    }

    /// The slots that hold a chunk, in file-table order (z major, as the game lays them out).
    pub fn locations(&self) -> Vec<Location> {
        (0..SLOTS)
            .filter(|&slot| self.header[slot * 4..slot * 4 + 4] != [0, 0, 0, 0])
            .map(|slot| Location {
                local_x: slot % 32,
                local_z: slot / 32,
            })
            .collect()
    }

    /// Checks the location entry and the chunk header of a slot (the sectors lie past the
    /// header, inside the file and are the slot's own, the stored length fits the sectors,
    /// the compression is one the game writes in-line), reads its sectors and returns the
    /// compression type and the payload's range in `self.sectors`.
    fn payload(&mut self, at: Location) -> Result<(u8, std::ops::Range<usize>), SkipReason> {
        let (offset, sectors) = self.entry(at.slot());
        if offset < 2 || sectors == 0 {
            return Err(SkipReason::BadLocation);
        }
        if self.shared[at.slot()] {
            return Err(SkipReason::SharedSectors);
        }
        let start = (offset * SECTOR) as u64;
        // At most 255 sectors (1 MiB), and never past the end of the file.
        let want = ((sectors * SECTOR) as u64).min(self.len.saturating_sub(start));
        if want < 5 {
            return Err(SkipReason::Truncated);
        }
        self.sectors.clear();
        let read = self
            .source
            .seek(SeekFrom::Start(start))
            .and_then(|_| (&mut self.source).take(want).read_to_end(&mut self.sectors));
        self.bytes_read += self.sectors.len() as u64;
        // A read that fails or ends early (the file shrank) is a chunk the file does not hold.
        if read.is_err() || self.sectors.len() < 5 {
            return Err(SkipReason::Truncated);
        }
        let head = &self.sectors[..5];
        let length = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        if length == 0 || length > MAX_PAYLOAD + 1 {
            return Err(SkipReason::BadLocation);
        }
        if 4 + length > sectors * SECTOR {
            return Err(SkipReason::BadLocation);
        }
        if 4 + length > self.sectors.len() {
            return Err(SkipReason::Truncated);
        }
        match head[4] {
            1..=4 => Ok((head[4], 5..4 + length)),
            129..=132 => Err(SkipReason::External),
            _ => Err(SkipReason::BadCompression),
        }
    }

    /// The decompressed NBT of the chunk at `at`, inflating at most `limit` bytes.
    ///
    /// The NBT is the [`SkipReason`] when the slot's entry or header is damaged, its
    /// sectors are another slot's too, the payload does not decompress, or it decompresses
    /// to more than `limit` bytes ([`SkipReason::TooLarge`]).
    pub fn read(&mut self, at: Location, limit: usize) -> ReadChunk {
        match self.payload(at) {
            Ok((scheme, range)) => {
                let (nbt, inflated) = inflate(scheme, &self.sectors[range], limit);
                ReadChunk {
                    nbt,
                    inflated: inflated as u64,
                }
            }
            Err(reason) => ReadChunk {
                nbt: Err(reason),
                inflated: 0,
            },
        }
    }
}
