//! [`AddedLabels`]: the labels of the positions added to a [`ReachIndex`](super::ReachIndex)
//! since its build, kept by chunk column in sorted arrays of 8 bytes per position (and 1 028
//! bytes per chunk column for where its columns start).
//!
//! Why not a hash map by position: its entries take 16 bytes (a 12-byte position and a
//! label) and its buckets up to twice as many as it holds, 20 to 40 bytes per position,
//! several times the walk graph's 16; on a server that builds its index on an empty world
//! every position is an added one.

use ahash::AHashMap;
use glam::IVec3;

/// The labels of positions, by chunk column: each column's positions sorted by
/// [`AddedLabels::key`], with where each of its 256 columns starts.
#[derive(Debug, Clone, Default)]
pub(super) struct AddedLabels {
    chunks: AHashMap<(i32, i32), Box<ChunkLabels>>,
    len: usize,
}

/// One chunk column's positions: `entries[starts[c] .. starts[c + 1]]` are column `c`'s (a
/// column holds a few), so a lookup reads one short run instead of searching the chunk.
#[derive(Debug, Clone)]
struct ChunkLabels {
    starts: [u32; 257],
    entries: Vec<(u32, u32)>,
}

impl AddedLabels {
    /// The chunk column of `feet`, its column inside the chunk, and its key: the column in
    /// the top 8 bits, the height in the low 24 (heights of one world span less than 2^16,
    /// so the key tells positions apart).
    fn key(feet: IVec3) -> ((i32, i32), usize, u32) {
        let column = (((feet.z & 15) << 4) | (feet.x & 15)) as u32;
        (
            (feet.x >> 4, feet.z >> 4),
            column as usize,
            (column << 24) | (feet.y as u32 & 0xFF_FFFF),
        )
    }

    /// How many positions it holds.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The label of `feet`, if it holds one.
    pub(super) fn get(&self, feet: IVec3) -> Option<u32> {
        let (chunk, column, key) = Self::key(feet);
        let labels = self.chunks.get(&chunk)?;
        let run = labels.starts[column] as usize..labels.starts[column + 1] as usize;
        labels.entries[run]
            .iter()
            .find(|&&(k, _)| k == key)
            .map(|&(_, label)| label)
    }

    /// Gives `feet` the label `label`, replacing the one it had.
    pub(super) fn insert(&mut self, feet: IVec3, label: u32) {
        let (chunk, column, key) = Self::key(feet);
        let labels = self.chunks.entry(chunk).or_insert_with(|| {
            Box::new(ChunkLabels {
                starts: [0; 257],
                entries: Vec::new(),
            })
        });
        let (low, high) = (
            labels.starts[column] as usize,
            labels.starts[column + 1] as usize,
        );
        let at = low + labels.entries[low..high].partition_point(|&(k, _)| k < key);
        if at < high && labels.entries[at].0 == key {
            labels.entries[at].1 = label;
            return;
        }
        labels.entries.insert(at, (key, label));
        for start in &mut labels.starts[column + 1..] {
            *start += 1;
        }
        self.len += 1;
    }

    /// Forgets the label of `feet`, if it holds one, and the chunk column's array once empty.
    pub(super) fn remove(&mut self, feet: IVec3) {
        let (chunk, column, key) = Self::key(feet);
        let Some(labels) = self.chunks.get_mut(&chunk) else {
            return;
        };
        let (low, high) = (
            labels.starts[column] as usize,
            labels.starts[column + 1] as usize,
        );
        let Some(at) = labels.entries[low..high]
            .iter()
            .position(|&(k, _)| k == key)
        else {
            return;
        };
        labels.entries.remove(low + at);
        for start in &mut labels.starts[column + 1..] {
            *start -= 1;
        }
        self.len -= 1;
        if labels.entries.is_empty() {
            self.chunks.remove(&chunk);
        }
    }

    /// Every label held, to renumber.
    pub(super) fn labels_mut(&mut self) -> impl Iterator<Item = &mut u32> {
        self.chunks
            .values_mut()
            .flat_map(|labels| labels.entries.iter_mut().map(|(_, label)| label))
    }

    /// Gives back what the arrays of the chunk columns of `feet` hold beyond their length
    /// (arrays grow by doubling while a column loads), and the map's buckets once it holds
    /// less than a quarter of them.
    pub(super) fn trim(&mut self, feet: impl IntoIterator<Item = IVec3>) {
        let mut last = None;
        for chunk in feet.into_iter().map(|feet| Self::key(feet).0) {
            if last == Some(chunk) {
                continue;
            }
            last = Some(chunk);
            if let Some(labels) = self.chunks.get_mut(&chunk)
                && labels.entries.capacity() > labels.entries.len() + labels.entries.len() / 8 + 4
            {
                labels.entries.shrink_to_fit();
            }
        }
        let held = self.chunks.len();
        if held < self.chunks.capacity() / 4 {
            self.chunks.shrink_to(held * 2);
        }
    }

    /// The memory it holds, in bytes: per chunk column a map entry (key, pointer, control
    /// byte), its table of starts and its array's capacity.
    pub(super) fn memory_bytes(&self) -> usize {
        self.chunks.capacity() * (8 + 8 + 1)
            + self
                .chunks
                .values()
                .map(|labels| {
                    size_of::<ChunkLabels>() + labels.entries.capacity() * size_of::<(u32, u32)>()
                })
                .sum::<usize>()
    }
}
