//! The record table of searches over a [`NavGraph`]: one record per node id in a flat
//! array, a search stamp instead of clearing between queries, in two layouts.

use glam::IVec3;

use super::detours::{HORIZONTAL_SLOT, OPPOSITE_SLOT};
use crate::graph::columns::CHAIN_END;
use crate::graph::{
    CODE_BITS, CODE_MASK, NO_NODE, NavGraph, NodeId, Pricing, SLOT_DIRECTIONS, SLOT_UP,
};
use crate::search::core::{Offer, RecordTable, map_pages, zeroed_records};

/// What the search knows of one node. A record belongs to the current search only when its
/// stamp is the search's (open) or one more (closed); any other stamp means "not seen". The
/// heuristic is not kept: it is recomputed from the feet position where needed, which is
/// cheaper than the memory it would take.
///
/// Two layouts: [`Narrow`] (8 bytes) whenever no cost in the search can reach `2^32`, which
/// is every search with the default costs on worlds of up to millions of feet positions, and
/// [`Wide`] (16 bytes) otherwise. Half the bytes per record is half the cache lines a search
/// touches in its records, which, with the nodes, are its main traffic to memory.
pub(super) trait Record: Copy + Default {
    /// Stamps wrap below this (they are cleared then).
    const STAMP_LIMIT: u32;
    fn stamp(self) -> u32;
    fn g(self) -> u64;
    /// A record of the search `stamp` at cost `g`, reached from `parent` by the move in
    /// `slot` of shape `code`.
    fn reached(g: u64, stamp: u32, parent: NodeId, slot: usize, code: u64) -> Self;
    /// The record of the start of the search `stamp`: cost 0, reached by no move.
    fn start(stamp: u32) -> Self;
    fn set_stamp(&mut self, stamp: u32);
    /// The node this one was reached from, [`NO_NODE`] for the start; `node` is this
    /// record's node.
    fn parent(self, graph: &NavGraph, rises: &[i32; 1 << CODE_BITS], node: NodeId) -> NodeId;
    /// The horizontal move that reached this record's node `node` (at local height `y`, its
    /// slot and shape code) and the moves word of the node it left, for [`dominated`](super::detours::DetourTable::dominated); `None`
    /// for the start, a ladder climb, or a parent not found. `around` holds the columns of
    /// the slots around `node`.
    fn arrival(
        self,
        graph: &NavGraph,
        pricing: &Pricing,
        node: NodeId,
        y: i32,
        around: &[usize; 16],
    ) -> Option<(usize, u64, u64)>;
}

/// 16 bytes: any cost, the parent's id and the stamp, in that order. A tuple of plain
/// integers, so that a fresh array of them is zeroed memory ([`zeroed_records`]).
pub(super) type Wide = (u64, NodeId, u32);

impl Record for Wide {
    const STAMP_LIMIT: u32 = u32::MAX - 3;

    #[inline]
    fn stamp(self) -> u32 {
        self.2
    }
    #[inline]
    fn g(self) -> u64 {
        self.0
    }
    #[inline]
    fn reached(g: u64, stamp: u32, parent: NodeId, _: usize, _: u64) -> Self {
        (g, parent, stamp)
    }
    fn start(stamp: u32) -> Self {
        (0, NO_NODE, stamp)
    }
    #[inline]
    fn set_stamp(&mut self, stamp: u32) {
        self.2 = stamp;
    }
    fn parent(self, _: &NavGraph, _: &[i32; 1 << CODE_BITS], _: NodeId) -> NodeId {
        self.1
    }
    #[inline]
    fn arrival(
        self,
        graph: &NavGraph,
        pricing: &Pricing,
        node: NodeId,
        y: i32,
        _: &[usize; 16],
    ) -> Option<(usize, u64, u64)> {
        if self.1 == NO_NODE {
            return None;
        }
        let parent = graph.slots[self.1 as usize];
        let (x, z) = graph.xz(node);
        let (px, pz) = graph.xz(self.1);
        let slot = HORIZONTAL_SLOT
            .get(((x - px + 1) * 3 + (z - pz + 1)) as usize)
            .copied()
            .flatten()?;
        let code = (parent.out >> (slot as u32 * CODE_BITS)) & CODE_MASK;
        // The parent's move in that slot is the one that reached this node when its rise
        // matches (a slot holds one move); a ladder parent (same column) has no slot here.
        (code != 0 && i32::from(parent.y) + pricing.step(slot, code).dy == y)
            .then_some((slot, code, parent.out))
    }
}

/// 8 bytes: a cost below `2^32`, and instead of the parent's id the move that reached the
/// node (its slot and shape code, 10 bits), from which the parent follows: the slot gives its
/// column and the shape its height. The stamp takes the other 22 bits. The tuple holds the
/// cost, then the tag `stamp << 10 | slot << 6 | code` (slot [`START_SLOT`] for the start):
/// plain integers, so that a fresh array of them is zeroed memory ([`zeroed_records`]).
pub(super) type Narrow = (u32, u32);

/// The slot a [`Narrow`] record of the start holds: no move reached it.
const START_SLOT: u32 = 15;

impl Record for Narrow {
    const STAMP_LIMIT: u32 = (1 << 22) - 3;

    #[inline]
    fn stamp(self) -> u32 {
        self.1 >> 10
    }
    #[inline]
    fn g(self) -> u64 {
        u64::from(self.0)
    }
    #[inline]
    fn reached(g: u64, stamp: u32, _: NodeId, slot: usize, code: u64) -> Self {
        // The search uses this layout only when every cost fits (see `fits_narrow`).
        (g as u32, (stamp << 10) | ((slot as u32) << 6) | code as u32)
    }
    fn start(stamp: u32) -> Self {
        (0, (stamp << 10) | (START_SLOT << 6))
    }
    #[inline]
    fn set_stamp(&mut self, stamp: u32) {
        self.1 = (stamp << 10) | (self.1 & 0x3ff);
    }
    #[inline]
    fn arrival(
        self,
        graph: &NavGraph,
        pricing: &Pricing,
        _: NodeId,
        y: i32,
        around: &[usize; 16],
    ) -> Option<(usize, u64, u64)> {
        let slot = ((self.1 >> 6) & 15) as usize;
        // The start's slot (15) and the ladders' (8, 9) have no dominated moves here.
        if slot >= SLOT_UP {
            return None;
        }
        let code = u64::from(self.1) & CODE_MASK;
        let parent_y = (y - pricing.step(slot, code).dy) as u16;
        // The parent's column is one step against the arrival: the opposite slot's column.
        let mut id = around[OPPOSITE_SLOT[slot]];
        let mut entry = graph.slots[id];
        while entry.y != parent_y {
            let next = graph.next[id];
            if next & CHAIN_END != 0 {
                return None;
            }
            id = next as usize;
            entry = graph.slots[id];
        }
        Some((slot, code, entry.out))
    }
    fn parent(self, graph: &NavGraph, rises: &[i32; 1 << CODE_BITS], node: NodeId) -> NodeId {
        let slot = (self.1 >> 6) & 15;
        if slot == START_SLOT {
            return NO_NODE;
        }
        let direction = SLOT_DIRECTIONS[slot as usize];
        let rise = rises[(self.1 & CODE_MASK as u32) as usize];
        let column = graph.home_toward(graph.home_of(node), -direction.x, -direction.z);
        graph.find_in_column(
            column as usize,
            (i32::from(graph.slots[node as usize].y) - rise) as u16,
        )
    }
}

/// The records of one layout, with their search stamp.
#[derive(Debug, Clone, Default)]
pub(super) struct Records<R> {
    pub(super) entries: Vec<R>,
    /// The index of node 0's record: up to a cache line of padding comes first, so that node 0
    /// and with it each row of 16 home slots of a page (see `NavGraph::around`) starts a
    /// 64-byte line, and a node's record shares its lines with its row's rather than with
    /// the end of the previous row.
    first: usize,
    /// The open stamp of the last search; `stamp + 1` marks a closed node. Always even.
    stamp: u32,
}

impl<R: Record> Records<R> {
    /// Sizes the records for `graph`, their pages mapped now: no search on it meets a page
    /// fault in them.
    pub(super) fn reserve_for(&mut self, graph: &NavGraph) {
        self.grow(graph);
        map_pages(&mut self.entries);
    }

    /// Makes room for a record per node of `graph`: a fresh array of unseen records (stamp 0,
    /// never a search's) when the present one is too small, the old stamps being of no use to
    /// the searches to come. Zeroed memory ([`zeroed_records`]): a search pays only for the
    /// pages of the records it reaches (at 2048 x 128 x 2048, 43 MB of records: writing them
    /// took 20 ms of a fresh search's first long route). A graph that has grown (blocks
    /// placed since the last search) tends to grow again: a quarter more room then spares
    /// the next few updates a reallocation each.
    fn grow(&mut self, graph: &NavGraph) {
        if self.entries.len() < self.first + graph.id_bound() {
            let padding = 64 / std::mem::size_of::<R>();
            let headroom = if self.entries.is_empty() {
                0
            } else {
                graph.id_bound() / 4
            };
            let len = graph.id_bound() + headroom + padding;
            self.entries = zeroed_records(R::default(), len);
            self.first = self.entries.as_ptr().align_offset(64).min(padding);
        }
    }

    /// Moves to a fresh stamp, clearing the stamps when they would wrap.
    fn next_stamp(&mut self, graph: &NavGraph) -> u32 {
        self.grow(graph);
        if self.stamp >= R::STAMP_LIMIT {
            for record in &mut self.entries {
                record.set_stamp(0);
            }
            self.stamp = 0;
        }
        self.stamp += 2;
        self.stamp
    }

    pub(super) fn explored<'a>(&'a self, graph: &'a NavGraph) -> impl Iterator<Item = IVec3> + 'a {
        let closed = self.stamp + 1;
        self.entries[self.first..]
            .iter()
            .enumerate()
            .take(graph.id_bound())
            .filter(move |(_, r)| r.stamp() == closed)
            .map(|(id, _)| graph.feet(id as NodeId))
    }

    /// The record of node `node` when the last search reached it.
    pub(super) fn reached(&self, node: NodeId) -> Option<R> {
        let record = *self.entries.get(self.first + node as usize)?;
        (self.stamp != 0 && record.stamp() >> 1 == self.stamp >> 1).then_some(record)
    }

    /// Starts a search on `graph` from node `start`: a fresh stamp, the start's record, and
    /// the records as the search loop sees them.
    pub(super) fn start(&mut self, graph: &NavGraph, start: NodeId) -> GraphRecords<'_, R> {
        let open = self.next_stamp(graph);
        let records = &mut self.entries[self.first..self.first + graph.id_bound()];
        records[start as usize] = R::start(open);
        GraphRecords { records, open }
    }
}

/// The records of one search on a graph, as the search loop sees them.
pub(super) struct GraphRecords<'a, R> {
    /// One record per node id.
    pub(super) records: &'a mut [R],
    /// The search's open stamp; `open + 1` marks a closed node.
    open: u32,
}

impl<R: Record> RecordTable for GraphRecords<'_, R> {
    type Record = R;
    /// A successor's node id.
    type At = NodeId;
    /// The slot and shape code of the move (a [`Narrow`] record keeps them instead of the
    /// parent).
    type Via = (usize, u64);

    #[inline]
    fn open_record(&mut self, node: u32) -> Option<R> {
        let record = self.records[node as usize];
        (record.stamp() == self.open).then_some(record)
    }

    #[inline]
    fn g(record: R) -> u64 {
        record.g()
    }

    #[inline]
    fn close(&mut self, node: u32) {
        self.records[node as usize].set_stamp(self.open + 1);
    }

    #[inline]
    fn offer(&mut self, to: NodeId, g: u64, parent: u32, (slot, code): (usize, u64)) -> Offer {
        let record = &mut self.records[to as usize];
        // Open and closed stamps differ only in the lowest bit. No move back to the parent
        // passes this test: its cost only adds to the parent's own.
        if record.stamp() >> 1 == self.open >> 1 && g >= record.g() {
            return Offer::Kept;
        }
        // A narrow record holds every cost of the search (see `Core::narrow_fits`).
        *record = R::reached(g, self.open, parent, slot, code);
        Offer::Taken(to)
    }
}
