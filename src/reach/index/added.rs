//! [`AddedLabels`]: the labels of the positions added to a [`ReachIndex`](super::ReachIndex)
//! since its build, kept by chunk column in sorted arrays of 8 bytes per position.
//!
//! Why not a hash map by position: its entries take 16 bytes (a 12-byte position and a
//! label) and its buckets up to twice as many as it holds, 20 to 40 bytes per position,
//! several times the walk graph's 16; on a server that builds its index on an empty world
//! every position is an added one.

use ahash::AHashMap;
use glam::IVec3;

/// The labels of positions, by chunk column: each column's positions sorted by
/// [`AddedLabels::key`].
#[derive(Debug, Clone, Default)]
pub(super) struct AddedLabels {
    chunks: AHashMap<(i32, i32), Vec<(u32, u32)>>,
    len: usize,
}

impl AddedLabels {
    /// The chunk column of `feet` and its key there: the column inside the chunk in the top
    /// 8 bits, the height in the low 24 (heights of one world span less than 2^16, so the
    /// key tells positions apart).
    fn key(feet: IVec3) -> ((i32, i32), u32) {
        let column = (((feet.z & 15) << 4) | (feet.x & 15)) as u32;
        (
            (feet.x >> 4, feet.z >> 4),
            (column << 24) | (feet.y as u32 & 0xFF_FFFF),
        )
    }

    /// How many positions it holds.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The label of `feet`, if it holds one.
    pub(super) fn get(&self, feet: IVec3) -> Option<u32> {
        let (chunk, key) = Self::key(feet);
        let entries = self.chunks.get(&chunk)?;
        let at = entries.binary_search_by_key(&key, |&(k, _)| k).ok()?;
        Some(entries[at].1)
    }

    /// Gives `feet` the label `label`, replacing the one it had.
    pub(super) fn insert(&mut self, feet: IVec3, label: u32) {
        let (chunk, key) = Self::key(feet);
        let entries = self.chunks.entry(chunk).or_default();
        match entries.binary_search_by_key(&key, |&(k, _)| k) {
            Ok(at) => entries[at].1 = label,
            Err(at) => {
                entries.insert(at, (key, label));
                self.len += 1;
            }
        }
    }

    /// Forgets the label of `feet`, if it holds one, and the chunk column's array once empty.
    pub(super) fn remove(&mut self, feet: IVec3) {
        let (chunk, key) = Self::key(feet);
        let Some(entries) = self.chunks.get_mut(&chunk) else {
            return;
        };
        if let Ok(at) = entries.binary_search_by_key(&key, |&(k, _)| k) {
            entries.remove(at);
            self.len -= 1;
            if entries.is_empty() {
                self.chunks.remove(&chunk);
            }
        }
    }

    /// Every label held, to renumber.
    pub(super) fn labels_mut(&mut self) -> impl Iterator<Item = &mut u32> {
        self.chunks
            .values_mut()
            .flat_map(|entries| entries.iter_mut().map(|(_, label)| label))
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
            if let Some(entries) = self.chunks.get_mut(&chunk)
                && entries.capacity() > entries.len() + entries.len() / 8 + 4
            {
                entries.shrink_to_fit();
            }
        }
        let held = self.chunks.len();
        if held < self.chunks.capacity() / 4 {
            self.chunks.shrink_to(held * 2);
        }
    }

    /// The memory it holds, in bytes: per chunk column a map entry (key, array, control
    /// byte) and the array's capacity.
    pub(super) fn memory_bytes(&self) -> usize {
        self.chunks.capacity() * (8 + size_of::<Vec<(u32, u32)>>() + 1)
            + self
                .chunks
                .values()
                .map(|entries| entries.capacity() * size_of::<(u32, u32)>())
                .sum::<usize>()
    }
}
