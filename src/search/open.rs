//! The open set: a radix heap with 256 buckets per byte of the key, a monotone integer
//! priority queue that stays exact for keys of any size.
//!
//! A* with a consistent heuristic pops `f` values that never decrease, and every `f` pushed is
//! at least the last one popped. A radix heap uses exactly that. Here an entry's bucket is
//! named by the highest byte (its *level*) in which its key differs from the last key popped,
//! and by its own value of that byte; a key equal to the last one is at level 0. Numbering the
//! buckets level by level, byte value by byte value, orders them by key: every key in a bucket
//! is below every key in any later bucket, so the lowest non-empty bucket is the lowest set
//! bit of a 2048-bit occupancy map (with a summary word of its non-zero words). A level-0
//! bucket holds a single key, so it pops at once. A bucket of a higher level is spread when
//! it is the lowest: its smallest key becomes the last key and its entries fall to lower
//! levels, so an entry moves at most once per level (at most twice for octile costs at scale
//! 100 000, whose keys stay within 2^20 of the last key), at any cost scale, with no
//! comparison heap. A bucket holding a single key, the common case at large cost scales,
//! becomes that key's level-0 bucket whole, without moving its entries. (A radix heap of one
//! bit per level moved every entry about 10 times on the Moving AI queries.)
//!
//! Bytes: an entry whose key agrees with the last key above bit 31 (levels 0 to 3: all but
//! the few keys across a multiple of 2^32 from the last key) is 8 bytes, the low 32 bits of
//! its key and its node; the high bits are the last key's. Entries of levels 4 to 7 keep
//! their whole key (16 bytes) and are turned into small ones when their bucket is spread.
//!
//! Ties: among equal keys the most recently pushed entry (a child of the node just expanded,
//! so the deepest) pops first, which on terrain full of equal `f` values goes straight for the
//! goal: an entry's bucket depends only on its key and the last key, so equal keys always share
//! a bucket, which is a stack, and a spread keeps their order. (Sorting equal keys by `g` as
//! well saved under 0.5% of the expansions on the terrain queries of `benches/graph.rs` and
//! cost more time than it saved.) Keys below the last key popped (an inconsistent heuristic
//! such as the weighted or Manhattan ones) go to a small binary heap that `pop` empties first,
//! deepest first among equal keys, so the queue pops the true minimum for any keys.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bits per level: a bucket per value of a byte of the key.
const DIGIT_BITS: u32 = 8;
/// Buckets per level.
const DIGITS: usize = 1 << DIGIT_BITS;
/// Levels 0 ..= 3 hold keys that agree with the last key above bit 31.
const NEAR_LEVELS: usize = 32 / DIGIT_BITS as usize;
/// Buckets of the small (8-byte) entries, then as many of the whole-key ones.
const NEAR_BUCKETS: usize = NEAR_LEVELS * DIGITS;
/// All buckets: 8 levels of 256.
const BUCKETS: usize = 2 * NEAR_BUCKETS;
/// Words of the occupancy map.
const WORDS: usize = BUCKETS / 64;
/// Entries an emptied bucket keeps room for. A bucket holds a window of keys that the search
/// passes once, and over a long search every bucket would otherwise keep the room of its
/// largest window: on a flier's 2.8-million-node search that was more memory than the live
/// entries. Freeing larger vectors costs one allocation per 512 entries at most.
const KEPT_CAPACITY: usize = 512;
/// Summary bits of the words that map level 0.
const LEVEL_0_WORDS: u64 = (1 << (DIGITS / 64)) - 1;

/// An entry of levels 0 to 3: the low 32 bits of its key (the high ones are the last key's)
/// and its node.
#[derive(Debug, Clone, Copy)]
struct Near {
    key: u32,
    node: u32,
}

/// An entry of levels 4 to 7, with its whole key.
#[derive(Debug, Clone, Copy)]
struct Far {
    key: u64,
    node: u32,
}

/// The bucket of `key` when the last key popped is `last` (`key >= last`).
#[inline]
fn bucket_of(key: u64, last: u64) -> usize {
    // `| 1` puts an equal key at level 0.
    let level = ((key ^ last) | 1).ilog2() / DIGIT_BITS;
    let digit = (key >> (level * DIGIT_BITS)) as usize & (DIGITS - 1);
    level as usize * DIGITS + digit
}

/// [`bucket_of`] for a key and a last key that agree above bit 31, from their low halves (in
/// 32-bit arithmetic, so the bucket is visibly below [`NEAR_BUCKETS`]).
#[inline]
fn near_bucket_of(key: u32, last: u32) -> usize {
    let level = ((key ^ last) | 1).ilog2() / DIGIT_BITS;
    let digit = (key >> (level * DIGIT_BITS)) as usize & (DIGITS - 1);
    level as usize * DIGITS + digit
}

/// Frees the memory of an emptied bucket larger than [`KEPT_CAPACITY`], out of the hot path.
#[cold]
#[inline(never)]
fn release(entries: &mut Vec<Near>) {
    *entries = Vec::new();
}

#[derive(Debug, Clone)]
pub(crate) struct OpenSet {
    /// The last key popped; every entry in the buckets is at least this.
    last: u64,
    /// Fixed-size arrays, so that in-range bucket numbers need no bounds checks.
    near: Box<[Vec<Near>; NEAR_BUCKETS]>,
    far: Box<[Vec<Far>; BUCKETS - NEAR_BUCKETS]>,
    /// Bit `b % 64` of word `b / 64` set when bucket `b` is not empty.
    occupied: [u64; WORDS],
    /// Bit `w` set when word `w` of `occupied` is not zero.
    summary: u64,
    /// Entries whose key is below `last`, lowest key (then highest `g`) first.
    below: BinaryHeap<Reverse<(u64, Reverse<u32>, u32)>>,
}

impl Default for OpenSet {
    fn default() -> Self {
        Self {
            last: 0,
            near: Box::new(std::array::from_fn(|_| Vec::new())),
            far: Box::new(std::array::from_fn(|_| Vec::new())),
            occupied: [0; WORDS],
            summary: 0,
            below: BinaryHeap::new(),
        }
    }
}

impl OpenSet {
    /// Empties the set, keeping its memory, with `f` as the smallest key to come.
    pub(crate) fn reset(&mut self, f: u64) {
        while let Some(bucket) = self.lowest() {
            if bucket < NEAR_BUCKETS {
                self.near[bucket].clear();
            } else {
                self.far[bucket - NEAR_BUCKETS].clear();
            }
            self.mark_empty(bucket);
        }
        self.below.clear();
        self.last = f;
    }

    /// The lowest non-empty bucket.
    #[inline]
    fn lowest(&self) -> Option<usize> {
        if self.summary == 0 {
            return None;
        }
        let word = self.summary.trailing_zeros() as usize;
        Some(word * 64 + self.occupied[word].trailing_zeros() as usize)
    }

    #[inline]
    fn mark_occupied(&mut self, bucket: usize) {
        self.occupied[bucket / 64] |= 1 << (bucket % 64);
        self.summary |= 1 << (bucket / 64);
    }

    #[inline]
    fn mark_empty(&mut self, bucket: usize) {
        let word = &mut self.occupied[bucket / 64];
        *word &= !(1 << (bucket % 64));
        if *word == 0 {
            self.summary &= !(1 << (bucket / 64));
        }
    }

    /// Adds `node` with key `f` and path cost `g`.
    #[expect(
        clippy::inline_always,
        reason = "called out of line from the graph A*, its call and return cost 25 of the 58 instructions per push on the terrain queries"
    )]
    #[inline(always)]
    pub(crate) fn push(&mut self, f: u64, g: u64, node: u32) {
        if f < self.last {
            self.push_below(f, g, node);
            return;
        }
        // Level 0 (a key within the last key's 256) is the common case at small costs.
        let bucket = if f ^ self.last < DIGITS as u64 {
            f as usize & (DIGITS - 1)
        } else {
            bucket_of(f, self.last)
        };
        if bucket < NEAR_BUCKETS {
            // The level says that `f` agrees with `last` above bit 31.
            self.near[bucket].push(Near {
                key: f as u32,
                node,
            });
            self.mark_occupied(bucket);
        } else {
            self.push_far(f, node, bucket);
        }
    }

    /// [`OpenSet::push`] of a key that differs from the last one above bit 31 (rare: keys
    /// cross a multiple of 2^32 once in a while), out of the hot path.
    #[cold]
    #[inline(never)]
    fn push_far(&mut self, f: u64, node: u32, bucket: usize) {
        self.far[bucket - NEAR_BUCKETS].push(Far { key: f, node });
        self.mark_occupied(bucket);
    }

    /// [`OpenSet::push`] of a key below the last one popped (an inconsistent heuristic).
    #[cold]
    #[inline(never)]
    fn push_below(&mut self, f: u64, g: u64, node: u32) {
        let deep = u32::try_from(g).unwrap_or(u32::MAX);
        self.below.push(Reverse((f, Reverse(deep), node)));
    }

    /// Removes an entry with the lowest key and returns its key and its node.
    #[expect(
        clippy::inline_always,
        reason = "called out of line from the graph A*, it cost 6% more instructions on the Moving AI queries"
    )]
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        // The common case, kept small enough to inline: no key below the last one and a
        // non-empty level-0 bucket (words 0 to 3 of the occupancy map).
        if self.summary & LEVEL_0_WORDS != 0 && self.below.is_empty() {
            let word = self.summary.trailing_zeros() as usize;
            let bucket = word * 64 + self.occupied[word].trailing_zeros() as usize;
            Some(self.pop_level_0(bucket))
        } else {
            self.pop_slow()
        }
    }

    /// [`OpenSet::pop`] when there are keys below the last one or level 0 is empty.
    #[inline(never)]
    fn pop_slow(&mut self) -> Option<(u64, u32)> {
        if let Some(Reverse((f, _, node))) = self.below.pop() {
            return Some((f, node));
        }
        let bucket = self.lowest()?;
        if bucket >= DIGITS {
            self.spread(bucket);
        }
        let bucket = self.lowest()?;
        Some(self.pop_level_0(bucket))
    }

    /// Pops the latest entry of `bucket`, a non-empty level-0 one and the lowest.
    #[inline]
    fn pop_level_0(&mut self, bucket: usize) -> (u64, u32) {
        let entries = &mut self.near[bucket % DIGITS];
        let node = entries.pop().map_or(0, |entry| entry.node);
        if entries.is_empty() {
            if entries.capacity() > KEPT_CAPACITY {
                release(entries);
            }
            self.mark_empty(bucket);
        }
        // A level-0 bucket holds one key: the last key's high digits and the bucket's digit.
        self.last = (self.last & !(DIGITS as u64 - 1)) | bucket as u64;
        (self.last, node)
    }

    /// `bucket`, above level 0, is the lowest non-empty one: moves its smallest key into
    /// `last` and its entries to lower levels. Leaves a level-0 bucket non-empty.
    #[cold]
    fn spread(&mut self, bucket: usize) {
        self.mark_empty(bucket);
        if bucket < NEAR_BUCKETS {
            let mut entries = std::mem::take(&mut self.near[bucket]);
            // Every key of the bucket agrees with `last` above bit 31: the low halves order them.
            let high = self.last & !u64::from(u32::MAX);
            let first = entries.first().map_or(0, |e| e.key);
            let single = entries.iter().all(|e| e.key == first);
            let low = if single {
                first
            } else {
                entries.iter().map(|e| e.key).min().unwrap_or(first)
            };
            self.last = high | u64::from(low);
            if single {
                // One key (common at large cost scales): the whole bucket becomes the level-0
                // bucket of that key, which is empty, in the same order.
                let to = near_bucket_of(low, low);
                self.near[bucket] = std::mem::replace(&mut self.near[to], entries);
                self.mark_occupied(to);
                return;
            }
            // Field by field, so that the occupancy map stays in registers and memory.
            let (near, occupied, mut summary) = (&mut self.near, &mut self.occupied, self.summary);
            for &entry in &entries {
                let to = near_bucket_of(entry.key, low);
                near[to].push(entry);
                occupied[to / 64] |= 1 << (to % 64);
                summary |= 1 << (to / 64);
            }
            self.summary = summary;
            entries.clear();
            // Give the emptied vector's memory back to its bucket, unless it is large.
            if entries.capacity() <= KEPT_CAPACITY {
                self.near[bucket] = entries;
            }
        } else {
            let mut entries = std::mem::take(&mut self.far[bucket - NEAR_BUCKETS]);
            self.last = entries.iter().map(|e| e.key).min().unwrap_or(self.last);
            for entry in entries.drain(..) {
                let to = bucket_of(entry.key, self.last);
                if to < NEAR_BUCKETS {
                    self.near[to].push(Near {
                        key: entry.key as u32,
                        node: entry.node,
                    });
                } else {
                    self.far[to - NEAR_BUCKETS].push(entry);
                }
                self.mark_occupied(to);
            }
            if entries.capacity() <= KEPT_CAPACITY {
                self.far[bucket - NEAR_BUCKETS] = entries;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed-seed generator for the tests.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 11
        }
    }

    /// Pushed entries not yet popped: key, push number, node.
    #[derive(Default)]
    struct Reference(Vec<(u64, u64, u32)>);

    impl Reference {
        fn min(&self) -> Option<u64> {
            self.0.iter().map(|e| e.0).min()
        }

        /// Checks that `popped` has the lowest key and, when `lifo`, that it is the most
        /// recently pushed entry of that key; removes it.
        fn take(&mut self, popped: (u64, u32), lifo: bool) {
            let min = self.min().expect("popped from an empty set");
            assert_eq!(popped.0, min, "popped key is not the lowest");
            let at = if lifo {
                let at = (0..self.0.len())
                    .filter(|&i| self.0[i].0 == min)
                    .max_by_key(|&i| self.0[i].1)
                    .unwrap();
                assert_eq!(self.0[at].2, popped.1, "not the latest entry of key {min}");
                at
            } else {
                self.0
                    .iter()
                    .position(|e| (e.0, e.2) == popped)
                    .expect("popped an entry never pushed")
            };
            self.0.swap_remove(at);
        }
    }

    /// Random pushes (keys from `key`, given the lowest key in the set or the last popped) and
    /// pops against a reference, then drains both.
    fn against_reference(seed: u64, rounds: u32, lifo: bool, key: impl Fn(u64, u64) -> u64) {
        let mut rng = Lcg(seed);
        let mut open = OpenSet::default();
        let mut reference = Reference::default();
        let mut last = key(0, rng.next());
        open.reset(last);
        for round in 0..rounds {
            if !rng.next().is_multiple_of(3) || reference.0.is_empty() {
                let f = key(reference.min().unwrap_or(last), rng.next());
                let node = (rng.next() % 64) as u32;
                open.push(f, 0, node);
                reference.0.push((f, u64::from(round), node));
            } else {
                let popped = open.pop().unwrap();
                reference.take(popped, lifo);
                last = popped.0;
            }
        }
        while let Some(popped) = open.pop() {
            reference.take(popped, lifo);
        }
        assert!(reference.0.is_empty(), "the set ran dry too early");
    }

    #[test]
    fn pops_lowest_key_latest_first_at_small_costs() {
        // Terrain costs: many equal keys, a narrow window.
        against_reference(1, 20_000, true, |low, r| low + r % 40);
    }

    #[test]
    fn pops_lowest_key_latest_first_at_octile_scale() {
        // Octile costs at scale 100 000: keys spread over 2^19 above the lowest.
        against_reference(2, 20_000, true, |low, r| {
            low + (r % 3) * 100_000 + (r / 3 % 3) * 141_421
        });
    }

    #[test]
    fn pops_lowest_key_across_bit_32_and_far_above() {
        // Keys straddling 2^32 (a change in the whole-key levels) and jumps of 2^40.
        against_reference(3, 20_000, true, |low, r| {
            let base = low.max((1 << 32) - 5_000);
            match r % 8 {
                0 => base + ((r % 7) << 40),
                _ => base + r % 3_000,
            }
        });
    }

    #[test]
    fn pops_lowest_key_near_u64_max() {
        against_reference(4, 20_000, true, |low, r| {
            let base = low.max(u64::MAX - (1 << 36));
            base.saturating_add(r % (1 << 30) * (r % 2))
        });
        let mut open = OpenSet::default();
        open.reset(0);
        for (node, f) in [u64::MAX, 0, 1 << 63, u64::MAX - 1, 1 << 32, u64::MAX]
            .into_iter()
            .enumerate()
        {
            open.push(f, 0, node as u32);
        }
        let popped: Vec<_> = std::iter::from_fn(|| open.pop()).collect();
        assert_eq!(
            popped,
            [
                (0, 1),
                (1 << 32, 4),
                (1 << 63, 2),
                (u64::MAX - 1, 3),
                (u64::MAX, 5),
                (u64::MAX, 0)
            ]
        );
    }

    #[test]
    fn pops_lowest_key_with_keys_below_the_last_pop() {
        // An inconsistent heuristic: a fifth of the keys fall below the lowest one.
        against_reference(5, 20_000, false, |low, r| match r % 5 {
            0 => low.saturating_sub(r % 5_000),
            1 => low + 1_000_000 + r % 1_000,
            _ => low + r % 300_000,
        });
    }

    #[test]
    fn keys_below_the_last_pop_come_deepest_first() {
        let mut open = OpenSet::default();
        open.reset(100);
        open.push(100, 0, 0);
        assert_eq!(open.pop(), Some((100, 0)));
        open.push(150, 0, 1);
        open.push(90, 5, 2);
        open.push(90, 40, 3);
        open.push(80, 1, 4);
        open.push(90, 7, 5);
        let popped: Vec<_> = std::iter::from_fn(|| open.pop()).collect();
        assert_eq!(popped, [(80, 4), (90, 3), (90, 5), (90, 2), (150, 1)]);
    }

    #[test]
    fn reset_forgets_every_entry() {
        let mut open = OpenSet::default();
        open.reset(10);
        for f in [10, 11, 300, 1 << 33, 5] {
            open.push(f, 0, 1);
        }
        assert_eq!(open.pop(), Some((5, 1)));
        open.reset(7);
        assert_eq!(open.pop(), None);
        open.push(7, 0, 2);
        open.push(9, 0, 3);
        assert_eq!(open.pop(), Some((7, 2)));
        assert_eq!(open.pop(), Some((9, 3)));
        assert_eq!(open.pop(), None);
    }
}
