//! The open set of the abstract search and the searches inside cells: a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan 1990).
//!
//! A* with a consistent heuristic pops keys that never decrease, which is all a radix heap
//! needs: an entry sits in the bucket of the highest bit where its key differs from the last
//! key popped, so a pop moves each entry to a lower bucket at most 64 times in all, without
//! the comparisons and moves of a binary heap's sift. The binary heap of 24-byte entries was
//! the largest part of the abstract search's instructions (callgrind, `long --pairs 20`).

/// A monotone priority queue of `u32` items keyed by `u64`, smallest key first; among
/// equal keys the one pushed last comes first (the deeper one in an A*, where a node pushed
/// at the same `f` as its parent has a larger `g`).
#[derive(Debug, Clone, Default)]
pub(crate) struct RadixHeap {
    /// `buckets[0]` holds keys equal to `last`; `buckets[b]` keys whose highest bit
    /// differing from `last` is bit `b - 1`.
    buckets: Vec<Vec<(u64, u32)>>,
    last: u64,
    len: usize,
}

impl RadixHeap {
    /// Empties the heap; the next keys may start anywhere.
    pub(crate) fn clear(&mut self) {
        if self.buckets.len() != 65 {
            self.buckets = vec![Vec::new(); 65];
        }
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        self.last = 0;
        self.len = 0;
    }

    /// Adds `item` at `key`. A key below the last popped (an inconsistent, weighted
    /// heuristic) is queued at the last popped key: it comes out next, as soon as a binary
    /// heap would have given it.
    #[inline]
    pub(crate) fn push(&mut self, key: u64, item: u32) {
        if self.buckets.len() != 65 {
            self.clear();
        }
        let key = key.max(self.last);
        let bucket = Self::bucket(key ^ self.last);
        self.buckets[bucket].push((key, item));
        self.len += 1;
    }

    #[inline]
    fn bucket(difference: u64) -> usize {
        (64 - difference.leading_zeros()) as usize
    }

    /// The entry with the smallest key, `(key, item)`.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let index = self.buckets.iter().position(|bucket| !bucket.is_empty())?;
            let mut moving = std::mem::take(&mut self.buckets[index]);
            self.last = moving.iter().map(|&(key, _)| key).min()?;
            // Each entry lands in a bucket below `index`: it agrees with the new `last` on
            // every bit above the one where the bucket's keys first differ from the old.
            for &(key, item) in &moving {
                self.buckets[Self::bucket(key ^ self.last)].push((key, item));
            }
            moving.clear();
            // Give the emptied bucket its allocation back for the next entries.
            self.buckets[index] = moving;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }
}

#[cfg(test)]
mod tests {
    use super::RadixHeap;

    #[test]
    fn pops_in_key_order_with_monotone_pushes_between() {
        let mut rng = crate::testing::xorshift(7);
        let mut heap = RadixHeap::default();
        heap.clear();
        let mut reference: Vec<(u64, u32)> = Vec::new();
        let mut last = 0;
        for round in 0..2000u32 {
            if !rng().is_multiple_of(3) {
                let key = last + rng() % 1000;
                heap.push(key, round);
                reference.push((key, round));
            } else if let Some((key, _)) = heap.pop() {
                let smallest = reference.iter().map(|entry| entry.0).min();
                assert_eq!(Some(key), smallest);
                let at = reference.iter().position(|entry| entry.0 == key);
                reference.swap_remove(at.expect("present"));
                last = key;
            }
        }
        while let Some((key, _)) = heap.pop() {
            assert!(key >= last);
            last = key;
        }
    }
}
