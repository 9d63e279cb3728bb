//! The records of a search with [`JumpTables`]: a small dense store instead of the cell table
//! of the flier A*.
//!
//! Jump landings lie far apart, so in the cell table (pages of 16^3 records of 16 bytes) nearly
//! every record a search touches is a cache line of its own, in a page that the previous query
//! used for another region: cold. Here the records of a search lie in the order they were
//! made (24 bytes each, with their position), found by an open-addressing hash of the landing's
//! cell in the tables (linear probing, 8-byte slots: the stamp of the search and the cell, and
//! the record's number), both kept between queries. The large set's queries make 120 to 85 000
//! records (7 300 on average): at most 2 MB of records and 2 MB of slots, against a line of a
//! 64 kB page per record in the cell table.
//!
//! Nothing is cleared between searches: a slot belongs to this search only when it carries the
//! search's stamp (8 bits above the cell's 24: [`MAX_TABLE_CELLS`] is 2^24). When the stamps run
//! out, every 255 searches, the slots are cleared once. The slots double when half are taken,
//! up to twice the tables' cells (each cell has one record at most), so the store never fills.
//!
//! Tried with it and dropped (callgrind with an LL of 4 MB on the large set's 40 queries, as in
//! the module notes; wall clock as a guide, medians of interleaved runs at loads of 2 to 4),
//! against 269.3 M instructions and 225 k LL read misses (the store before expansions handed
//! it the tables' cell of the position: 265.9 M since): a load of the table cell of every
//! new landing (kept by `std::hint::black_box`; `_mm_prefetch` needs `unsafe` even inside a
//! function with `#[target_feature(enable = "sse")]`, whose callers then need it, and
//! `std::hint::prefetch_read` is unstable in Rust 1.95): 271.8 M and 311 k (the cells of
//! landings never expanded), 1 262 against 1 223 us per query; the same for landings whose key
//! equals the expanded position's only: 279.1 M, misses unchanged (such a landing is rarely
//! the next popped); the cell of the node the open set would pop next (the latest entry of
//! its lowest bucket when that is of level 0, read before each expansion: a hook in
//! `search/core.rs` and a peek in `search/open.rs`): misses at the expanded cell 125 k to
//! 62 k (the total unchanged, so the node peeked is nearly always the one expanded next), but
//! 282.8 M instructions, for 1 327 against 1 373 us: 3% on the clock for 5% more instructions
//! and two shared files.
//!
//! A true prefetch, tried in session 17 on a scratch build with one `unsafe` call
//! (`_mm_prefetch` of both ends of the landing's table cell): issued for every landing,
//! 252.1 M to 253.8 M instructions; only when the offer is taken, 253.3 M; with the peek above
//! added, 267.7 M. On a host whose timings swung from 1.4 to 3.4 ms per query for the same
//! binary the medians fell 8% to 14%, and it was not kept then. Measured again in session 28 on
//! a quiet machine (`JPS3D_SET=fly-large-256 JPS3D_ENGINE=tables JPS3D_PASSES=5` on the bench
//! binaries before and after, interleaved, three runs each; `JPS3D_PAIRS=200` for the larger
//! draw, see `ends.rs`), it pays far more than that noise showed, and it is kept
//! ([`crate::search::prefetch`], asked for in [`JumpStore::target`] for every landing):
//!
//! | set | before | after | gain |
//! |---|---|---|---|
//! | large, 40 pairs | 961-1 051 us per query | 722-759 us | 1.30x-1.46x |
//! | large, 200 pairs | 1 235-1 297 us | 909-935 us | 1.32x-1.42x |
//! | large, 40 pairs, an earlier series | 930-981 us | 743-795 us | 1.22x-1.25x |
//! | large, 40 pairs from seed 17 | 1 401-1 417 us | 1 071-1 168 us | 1.20x-1.32x |
//! | small pillars | 43.3-58.4 us | 40.1-49.9 us | |
//! | `Simple` | 5.2-5.4 us | 5.1-5.2 us | |
//!
//! Instructions (callgrind on `run_jps`, the large set's 40 queries): 183.1 M to 185.5 M. Asked
//! for only when the offer is taken (in `offer`): 187.2 M and the same clock within noise; with
//! `_MM_HINT_T1` (to the L2) 3% slower than `_MM_HINT_T0`; with the landings of an expansion
//! gathered first and their hash slots asked for too, before any is offered, 241.9 M
//! instructions and slower (the slots are in the L2, whose latency the processor already
//! hides, running on to the next jump while a probe waits).
//!
//! Session 30, quiet: the table cell of the node the open set would pop next, asked for
//! before each expansion (a `peek` at the lowest level-0 bucket's latest entry in
//! `search/open.rs`, the record's position turned into its cell, behind a `RecordTable`
//! constant in `search/core.rs` that other tables leave off), on top of the landings'
//! prefetch and the huge pages: 383.0 M to 408.0 M instructions (the large set's two passes),
//! and no clear gain on the clock. Three interleaved pairs of runs on the bench's 40 pairs
//! (nine passes): 737.5, 742.4 and 749.9 us per query before, 730.1, 749.6 and 715.8 after; 200
//! pairs: 885.1, 852.6 and 839.1 before, 834.7, 821.9 and 852.7 after; the eight draws of
//! `JPS3D_SEEDS=13-20` (summed jump times per query over the draws, two pairs of runs): 6 569
//! and 6 815 us before, 6 675 and 6 445 after. Not kept: 6.5% more instructions for a gain
//! (if any) inside the spread of the runs.

use glam::IVec3;

use super::jump::{JumpRecord, JumpStore};
use super::plus::{JumpTables, MAX_TABLE_CELLS};
use crate::search::core::{Offer, RecordTable};

/// The bits of a slot's key that hold the cell.
const CELL_BITS: u32 = 24;
const _: () = assert!(MAX_TABLE_CELLS <= 1 << CELL_BITS);
/// The bit of [`DenseRecord::arrivals`] set while the position is expanded for all its
/// arrivals (the arrival codes take bits 0 to 26).
const CLOSED: u32 = 1 << 31;
/// The slots of a new store.
const FIRST_SLOTS: usize = 1 << 12;

/// A record of the dense store: 24 bytes.
#[derive(Debug, Clone, Copy)]
struct DenseRecord {
    at: IVec3,
    g: u32,
    parent: u32,
    /// As [`JumpRecord::arrivals`], with [`CLOSED`].
    arrivals: u32,
}

/// A slot of the hash: `stamp << 24 | cell`, 0 when no search wrote it, and the record's number.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u32,
    node: u32,
}

/// The dense store of a [`JumpSearch`](super::JumpSearch), keeping its memory between searches.
#[derive(Debug, Clone, Default)]
pub(super) struct DenseStore {
    records: Vec<DenseRecord>,
    /// A power of two long (or empty before the first search).
    slots: Vec<Slot>,
    /// The current search's stamp, 1 to 255.
    stamp: u32,
    /// 32 less the bits of a slot's number: a cell's probe starts at the top bits of the
    /// cell times a constant (Fibonacci hashing).
    shift: u32,
}

/// Where a successor lies for the dense store: its cell in the tables and its position.
#[derive(Debug, Clone, Copy)]
pub(super) struct DenseAt {
    cell: u32,
    at: IVec3,
}

impl DenseStore {
    /// Starts a search from `start` (in the tables' bounds): forgets every record, keeping the
    /// memory, and makes the start's record (its own parent, arrivals `start_arrivals`): its
    /// node, 0.
    pub(super) fn start(&mut self, plus: &JumpTables, start: IVec3, start_arrivals: u32) -> u32 {
        self.records.clear();
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); FIRST_SLOTS];
            self.shift = 32 - FIRST_SLOTS.trailing_zeros();
        }
        if self.stamp == 255 {
            self.slots.fill(Slot::default());
            self.stamp = 0;
        }
        self.stamp += 1;
        let cell = plus.index(start).unwrap_or(0) as u32;
        let node = self.insert(cell);
        debug_assert_eq!(node, 0);
        self.records.push(DenseRecord {
            at: start,
            g: 0,
            parent: 0,
            arrivals: start_arrivals,
        });
        0
    }

    /// The slot of `cell`'s key in this search, or the empty slot where it goes.
    #[inline]
    fn probe(&self, key: u32) -> usize {
        let mask = self.slots.len() - 1;
        let cell = key & ((1 << CELL_BITS) - 1);
        let mut i = (cell.wrapping_mul(0x9E37_79B9) >> self.shift) as usize;
        loop {
            let slot = self.slots[i];
            if slot.key == key || slot.key >> CELL_BITS != self.stamp {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The node of `cell`, a new one (the next record's number, its record still to be pushed)
    /// taken when this search has none there: `Err` for a new one.
    #[inline]
    fn find_or_take(&mut self, cell: u32) -> Result<u32, u32> {
        let key = self.stamp << CELL_BITS | cell;
        let i = self.probe(key);
        let slot = self.slots[i];
        if slot.key == key {
            return Ok(slot.node);
        }
        let node = self.records.len() as u32;
        self.slots[i] = Slot { key, node };
        if 2 * (node as usize + 1) > self.slots.len() {
            self.grow();
        }
        Err(node)
    }

    /// [`DenseStore::find_or_take`] of a cell this search has no record of.
    fn insert(&mut self, cell: u32) -> u32 {
        match self.find_or_take(cell) {
            Ok(node) | Err(node) => node,
        }
    }

    /// Doubles the slots, placing this search's keys again (the records stay where they are).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![Slot::default(); old.len() * 2];
        self.shift -= 1;
        for slot in old {
            if slot.key >> CELL_BITS == self.stamp {
                let i = self.probe(slot.key);
                self.slots[i] = slot;
            }
        }
    }
}

/// The dense store as the search loop sees it, with the tables that give cells their numbers.
pub(super) struct DenseRecords<'a> {
    pub(super) store: &'a mut DenseStore,
    pub(super) plus: &'a JumpTables,
}

impl RecordTable for DenseRecords<'_> {
    type Record = JumpRecord;
    type At = DenseAt;
    /// The direction of the jump (an index of
    /// [`FREE_DIRECTIONS`](crate::moves::fly::FREE_DIRECTIONS)).
    type Via = u32;

    #[inline]
    fn open_record(&mut self, node: u32) -> Option<JumpRecord> {
        let record = self.store.records[node as usize];
        (record.arrivals & CLOSED == 0).then_some(JumpRecord {
            g: record.g,
            tag: 0,
            parent: record.parent,
            arrivals: record.arrivals,
        })
    }

    #[inline]
    fn g(record: JumpRecord) -> u64 {
        u64::from(record.g)
    }

    #[inline]
    fn close(&mut self, node: u32) {
        self.store.records[node as usize].arrivals |= CLOSED;
    }

    /// As [`JumpRecords`](super::jump::JumpRecords)' offer: taken when new or cheaper, and
    /// when as cheap by a new direction after the position was expanded.
    #[expect(
        clippy::inline_always,
        reason = "left out of line at `#[inline]`, its result went through a jump table: 9.5% more instructions on the large set"
    )]
    #[inline(always)]
    fn offer(&mut self, to: DenseAt, g: u64, parent: u32, dir: u32) -> Offer {
        let Ok(g) = u32::try_from(g) else {
            return Offer::Overflow;
        };
        let bit = 1 << dir;
        let node = match self.store.find_or_take(to.cell) {
            Ok(node) => node,
            Err(node) => {
                self.store.records.push(DenseRecord {
                    at: to.at,
                    g,
                    parent,
                    arrivals: bit,
                });
                return Offer::Taken(node);
            }
        };
        let record = &mut self.store.records[node as usize];
        if g < record.g {
            *record = DenseRecord {
                at: to.at,
                g,
                parent,
                arrivals: bit,
            };
            return Offer::Taken(node);
        }
        if g == record.g && record.arrivals & bit == 0 {
            let closed = record.arrivals & CLOSED != 0;
            record.arrivals = (record.arrivals | bit) & !CLOSED;
            if closed {
                return Offer::Taken(node);
            }
        }
        Offer::Kept
    }
}

impl JumpStore for DenseRecords<'_> {
    /// The slots double when half are taken, up to twice the tables' cells, so the store
    /// never fills (the module notes).
    const NEVER_FULL: bool = true;

    /// The cell of the expanded position in the tables.
    type Near = usize;

    #[inline]
    fn near(&self, _: u32, _: IVec3, cell: Option<usize>) -> usize {
        // An expanded position lies in the bounds.
        cell.unwrap_or(0)
    }

    /// Landings lie in the bounds (the tables' "fits" bits are 0 outside them), so the
    /// landing's cell is a step from the expanded one's.
    #[inline]
    fn target(
        &mut self,
        from: usize,
        _: u32,
        _: IVec3,
        to: IVec3,
        dir: usize,
        steps: u32,
    ) -> Option<DenseAt> {
        let cell = self.plus.index_along(from, dir, steps);
        debug_assert_eq!(Some(cell), self.plus.index(to));
        // Read when the landing is expanded, maybe soon: asked for now (the module notes).
        self.plus.prefetch_cell(cell);
        Some(DenseAt {
            cell: cell as u32,
            at: to,
        })
    }

    #[inline]
    fn position(&self, node: u32) -> IVec3 {
        self.store.records[node as usize].at
    }

    #[inline]
    fn record(&mut self, node: u32) -> JumpRecord {
        let record = self.store.records[node as usize];
        JumpRecord {
            g: record.g,
            tag: 0,
            parent: record.parent,
            arrivals: record.arrivals & !CLOSED,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::moves::agent::Agent;
    use crate::search::core::Offer;
    use crate::world::DenseWorld;

    /// Offers of random cells at random costs, over more searches than there are stamps and
    /// with more records than the first slots hold, are taken, kept and reopened as a map of
    /// the same records says, and every node keeps its position, cost, parent and arrivals.
    #[test]
    fn offers_agree_with_a_map_across_growth_and_stamps() {
        let world = DenseWorld::new(IVec3::new(40, 20, 30)).unwrap();
        let plus = JumpTables::build(&world, Agent::flier(1)).unwrap();
        let size = IVec3::new(40, 20, 30);
        let mut store = DenseStore::default();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for search in 0..600u32 {
            // Some searches make many records (the slots grow), most few.
            let offers = if search % 97 == 5 { 20_000 } else { 50 };
            let start = IVec3::new(1, 2, 3);
            store.start(&plus, start, 1 << 26);
            // The model: position -> (node, g, parent, arrivals, closed).
            let mut model: HashMap<IVec3, (u32, u32, u32, u32, bool)> = HashMap::new();
            model.insert(start, (0, 0, 0, 1 << 26, false));
            let mut table = DenseRecords {
                store: &mut store,
                plus: &plus,
            };
            for _ in 0..offers {
                let at = IVec3::new(
                    next(size.x as u64) as i32,
                    next(size.y as u64) as i32,
                    next(size.z as u64) as i32,
                );
                let (g, dir, parent) = (next(8) as u32, next(26) as u32, next(5) as u32);
                let to = DenseAt {
                    cell: plus.index(at).unwrap() as u32,
                    at,
                };
                let offered = table.offer(to, u64::from(g), parent, dir);
                let bit = 1 << dir;
                let len = model.len() as u32;
                let expected = match model.get_mut(&at) {
                    None => {
                        model.insert(at, (len, g, parent, bit, false));
                        Offer::Taken(len)
                    }
                    Some(entry) if g < entry.1 => {
                        *entry = (entry.0, g, parent, bit, false);
                        Offer::Taken(entry.0)
                    }
                    Some(entry) if g == entry.1 && entry.3 & bit == 0 => {
                        entry.3 |= bit;
                        let closed = std::mem::replace(&mut entry.4, false);
                        if closed {
                            Offer::Taken(entry.0)
                        } else {
                            Offer::Kept
                        }
                    }
                    Some(_) => Offer::Kept,
                };
                assert_eq!(offered, expected, "search {search}, {at}");
                if next(3) == 0 {
                    // Close a node now and then, as an expansion does.
                    let entry = model.get_mut(&at).unwrap();
                    if !entry.4 {
                        assert!(table.open_record(entry.0).is_some());
                        table.close(entry.0);
                        entry.4 = true;
                    }
                    assert!(table.open_record(entry.0).is_none());
                }
            }
            for (at, (node, g, parent, arrivals, _)) in model {
                assert_eq!(table.position(node), at);
                let record = table.record(node);
                assert_eq!(
                    (record.g, record.parent, record.arrivals),
                    (g, parent, arrivals)
                );
            }
        }
        assert!(store.slots.len() > FIRST_SLOTS, "{}", store.slots.len());
    }
}
