//! A* over a [`NavGraph`]: per-node records in one flat array indexed by node id, a search
//! stamp instead of clearing between queries, the radix-heap open set, and no allocation per
//! expansion.

use std::time::Instant;

use glam::IVec3;

use super::{CODE_BITS, CODE_MASK, NO_NODE, NavGraph, NodeId, Pricing, SLOT_DIRECTIONS, SLOT_UP};
use crate::error::{Error, Result};
use crate::moves::agent::MoveCosts;
use crate::moves::terrain_cost;
use crate::search::heuristic::{Estimator, HeuristicKind};
use crate::search::open::OpenSet;
use crate::search::{Budget, Goal, SearchOptions, SearchResult, SearchStats, SearchStatus};
use crate::world::InvalidFeet;

/// What the search knows of one node. A record belongs to the current search only when its
/// stamp is the search's (open) or one more (closed); any other stamp means "not seen". The
/// heuristic is not kept: it is recomputed from the feet position where needed, which is
/// cheaper than the memory it would take.
///
/// Two layouts: [`Narrow`] (8 bytes) whenever no cost in the search can reach `2^32`, which
/// is every search with the default costs on worlds of up to millions of feet positions, and
/// [`Wide`] (16 bytes) otherwise. Half the bytes per record is half the cache lines a search
/// touches in its records, which, with the nodes, are its main traffic to memory.
trait Record: Copy + Default {
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
    /// slot and shape code) and the moves word of the node it left, for [`dominated`]; `None`
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

/// 16 bytes: any cost, and the parent's id.
#[derive(Debug, Clone, Copy, Default)]
struct Wide {
    g: u64,
    parent: NodeId,
    stamp: u32,
}

impl Record for Wide {
    const STAMP_LIMIT: u32 = u32::MAX - 3;

    #[inline]
    fn stamp(self) -> u32 {
        self.stamp
    }
    #[inline]
    fn g(self) -> u64 {
        self.g
    }
    #[inline]
    fn reached(g: u64, stamp: u32, parent: NodeId, _: usize, _: u64) -> Self {
        Self { g, parent, stamp }
    }
    fn start(stamp: u32) -> Self {
        Self {
            g: 0,
            parent: NO_NODE,
            stamp,
        }
    }
    #[inline]
    fn set_stamp(&mut self, stamp: u32) {
        self.stamp = stamp;
    }
    fn parent(self, _: &NavGraph, _: &[i32; 1 << CODE_BITS], _: NodeId) -> NodeId {
        self.parent
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
        if self.parent == NO_NODE {
            return None;
        }
        let parent = graph.slots[self.parent as usize];
        let (x, z) = graph.xz(node);
        let (px, pz) = graph.xz(self.parent);
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
/// column and the shape its height. The stamp takes the other 22 bits.
#[derive(Debug, Clone, Copy, Default)]
struct Narrow {
    g: u32,
    /// `stamp << 10 | slot << 6 | code`; slot [`START_SLOT`] for the start.
    tag: u32,
}

/// The slot a [`Narrow`] record of the start holds: no move reached it.
const START_SLOT: u32 = 15;

impl Record for Narrow {
    const STAMP_LIMIT: u32 = (1 << 22) - 3;

    #[inline]
    fn stamp(self) -> u32 {
        self.tag >> 10
    }
    #[inline]
    fn g(self) -> u64 {
        u64::from(self.g)
    }
    #[inline]
    fn reached(g: u64, stamp: u32, _: NodeId, slot: usize, code: u64) -> Self {
        Self {
            // The search uses this layout only when every cost fits (see `fits_narrow`).
            g: g as u32,
            tag: (stamp << 10) | ((slot as u32) << 6) | code as u32,
        }
    }
    fn start(stamp: u32) -> Self {
        Self {
            g: 0,
            tag: (stamp << 10) | (START_SLOT << 6),
        }
    }
    #[inline]
    fn set_stamp(&mut self, stamp: u32) {
        self.tag = (stamp << 10) | (self.tag & 0x3ff);
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
        let slot = ((self.tag >> 6) & 15) as usize;
        // The start's slot (15) and the ladders' (8, 9) have no dominated moves here.
        if slot >= SLOT_UP {
            return None;
        }
        let code = u64::from(self.tag) & CODE_MASK;
        let parent_y = (y - pricing.step(slot, code).dy) as u16;
        // The parent's column is one step against the arrival: the opposite slot's column.
        let mut entry = graph.slots[around[OPPOSITE_SLOT[slot]]];
        while entry.y != parent_y {
            if entry.next == NO_NODE {
                return None;
            }
            entry = graph.slots[entry.next as usize];
        }
        Some((slot, code, entry.out))
    }
    fn parent(self, graph: &NavGraph, rises: &[i32; 1 << CODE_BITS], node: NodeId) -> NodeId {
        let slot = (self.tag >> 6) & 15;
        if slot == START_SLOT {
            return NO_NODE;
        }
        let direction = SLOT_DIRECTIONS[slot as usize];
        let rise = rises[(self.tag & CODE_MASK as u32) as usize];
        let (x, z) = graph.xz(node);
        let column = graph.column_index(x - direction.x, z - direction.z);
        graph.find_in_column(
            column,
            (i32::from(graph.slots[node as usize].y) - rise) as u16,
        )
    }
}

/// The records of one layout, with their search stamp.
#[derive(Debug, Clone, Default)]
struct Records<R> {
    entries: Vec<R>,
    /// The index of node 0's record: up to a cache line of padding comes first, so that node 0
    /// and with it each tile row of 8 ids (see [`NavGraph::column_index`]) starts a 64-byte
    /// line, and a node's record shares its line with its tile row's rather than with the
    /// end of the previous row.
    first: usize,
    /// The open stamp of the last search; `stamp + 1` marks a closed node. Always even.
    stamp: u32,
}

impl<R: Record> Records<R> {
    fn reserve_for(&mut self, graph: &NavGraph) {
        if self.entries.len() < self.first + graph.id_bound() {
            // A fresh array of unseen records (stamp 0, never a search's), the old stamps
            // being of no use to the searches to come. A graph that has grown (blocks placed
            // since the last search) tends to grow again: a quarter more room then spares the
            // next few updates a reallocation each.
            let padding = 64 / std::mem::size_of::<R>();
            let headroom = if self.entries.is_empty() {
                0
            } else {
                graph.id_bound() / 4
            };
            self.entries = vec![R::default(); graph.id_bound() + headroom + padding];
            self.first = self.entries.as_ptr().align_offset(64).min(padding);
        }
    }

    /// Moves to a fresh stamp, clearing the stamps when they would wrap.
    fn next_stamp(&mut self, graph: &NavGraph) -> u32 {
        self.reserve_for(graph);
        if self.stamp >= R::STAMP_LIMIT {
            for record in &mut self.entries {
                record.set_stamp(0);
            }
            self.stamp = 0;
        }
        self.stamp += 2;
        self.stamp
    }

    fn explored<'a>(&'a self, graph: &'a NavGraph) -> impl Iterator<Item = IVec3> + 'a {
        let closed = self.stamp + 1;
        self.entries[self.first..]
            .iter()
            .enumerate()
            .take(graph.id_bound())
            .filter(move |(_, r)| r.stamp() == closed)
            .map(|(id, _)| graph.feet(id as NodeId))
    }
}

/// A reusable A* over a [`NavGraph`] for one set of [`MoveCosts`].
///
/// Keep one per thread and call it for every query on any graph: its records and open set
/// keep their memory between searches, and a stamp per search replaces clearing them. It
/// takes the same [`SearchOptions`], [`Goal`]s and budgets as
/// [`Pathfinder`](crate::engine::Pathfinder) and returns the same [`SearchResult`]; the routes'
/// costs are the same, since the graph holds exactly the generator's moves.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions, SearchStatus};
/// use voxnav::graph::{GraphSearch, NavGraph};
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(6, 3, 1))?;
/// world.fill(IVec3::new(0, 0, 0), IVec3::new(5, 0, 0), Block::Solid)?;
/// let graph = NavGraph::compile(&world, &Agent::default())?;
/// let mut search = GraphSearch::new(MoveCosts::default())?;
/// let result = search.find_path(&graph, IVec3::new(0, 1, 0), IVec3::new(5, 1, 0), &SearchOptions::default())?;
/// assert_eq!(result.status, SearchStatus::Found);
/// assert_eq!(result.cost, Some(50));
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// Its `Debug` output is a summary (costs, record counts and bytes), not its records.
#[derive(Clone)]
pub struct GraphSearch {
    core: Core,
    narrow: Records<Narrow>,
    wide: Records<Wide>,
    /// Whether the last search used the narrow records.
    last_narrow: bool,
}

impl std::fmt::Debug for GraphSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes = self.narrow.entries.capacity() * std::mem::size_of::<Narrow>()
            + self.wide.entries.capacity() * std::mem::size_of::<Wide>();
        f.debug_struct("GraphSearch")
            .field("costs", &self.core.costs)
            .field("narrow_records", &self.narrow.entries.len())
            .field("wide_records", &self.wide.entries.len())
            .field("record_bytes", &bytes)
            .finish_non_exhaustive()
    }
}

/// The parts of a search that do not depend on the record layout.
#[derive(Debug, Clone)]
struct Core {
    costs: MoveCosts,
    /// The prices of the graph last searched.
    pricing: Pricing,
    open: OpenSet,
    /// The rise of each shape code, for the graph last searched.
    rises: [i32; 1 << CODE_BITS],
    /// The dominated detours at `pricing`.
    detours: DetourTable,
}

/// Per slot (padded to 16), `dx + 1` and `dz + 1` of its direction: which of the three
/// columns and rows around a node the move goes to.
const SLOT_COLUMN: [usize; 16] = slot_parts(true);
const SLOT_ROW: [usize; 16] = slot_parts(false);

/// The slot of each bit of a moves word (padded to 64).
const SLOT_OF_BIT: [u8; 64] = slot_of_bits();

const fn slot_of_bits() -> [u8; 64] {
    let mut slots = [0; 64];
    let mut bit = 0;
    while bit < 64 {
        slots[bit] = (bit as u32 / CODE_BITS) as u8;
        bit += 1;
    }
    slots
}

/// Per slot (padded to 16), the slot of the opposite direction.
const OPPOSITE_SLOT: [usize; 16] = opposite_slots();

/// The horizontal slot of each direction `(dx, dz)`, at `(dx + 1) * 3 + dz + 1`; `None` for
/// no move.
const HORIZONTAL_SLOT: [Option<usize>; 9] = horizontal_slots();

const fn horizontal_slots() -> [Option<usize>; 9] {
    let mut slots = [None; 9];
    let mut slot = 0;
    while slot < SLOT_UP {
        let d = SLOT_DIRECTIONS[slot];
        slots[((d.x + 1) * 3 + d.z + 1) as usize] = Some(slot);
        slot += 1;
    }
    slots
}

/// Per horizontal arrival slot `a`, its detours: a horizontal slot `b` of a next move and the
/// slot `c` of the single step from the parent to the same column (the direction of `c` is
/// the sum of `a`'s and `b`'s, one of the 8), as `b`'s and `c`'s bit offsets in a moves word
/// and the [`DetourTable`] offset of their class. A straight arrival has 4 detours, a
/// diagonal one 2; then comes the move back (`b` opposite to `a`, class [`BACK`]), whose `c`
/// is the unused top bits of a moves word, code 0: the parent itself. The rest is padding.
const DETOURS: [[Detour; 5]; 8] = detours();

/// The [`DetourTable`] class of the move back to the parent.
const BACK: usize = 3;

/// The bit offset past the last slot of a moves word: its bits are always 0.
const NO_SLOT_BITS: u32 = super::SLOTS as u32 * CODE_BITS;

/// One entry of [`DETOURS`].
#[derive(Debug, Clone, Copy)]
struct Detour {
    /// Bit offset of slot `b` in a moves word.
    b: u32,
    /// Bit offset of slot `c`.
    c: u32,
    /// `class << 12`: the offset of the class's sets in [`DetourTable::sets`].
    class: usize,
}

const fn detours() -> [[Detour; 5]; 8] {
    let pad = Detour {
        b: 0,
        c: NO_SLOT_BITS,
        class: 0,
    };
    let mut table = [[pad; 5]; 8];
    let mut a = 0;
    while a < SLOT_UP {
        let (mut b, mut count) = (0, 0);
        while b < SLOT_UP {
            let (da, db) = (SLOT_DIRECTIONS[a], SLOT_DIRECTIONS[b]);
            let (x, z) = (da.x + db.x, da.z + db.z);
            if x.abs() <= 1
                && z.abs() <= 1
                && (x != 0 || z != 0)
                && let Some(c) = HORIZONTAL_SLOT[((x + 1) * 3 + z + 1) as usize]
            {
                // Straight then straight makes a diagonal, otherwise a straight step.
                let class = if a >= 4 {
                    2
                } else if b >= 4 {
                    1
                } else {
                    0
                };
                table[a][count] = Detour {
                    b: b as u32 * CODE_BITS,
                    c: c as u32 * CODE_BITS,
                    class: class << (2 * CODE_BITS),
                };
                count += 1;
            }
            b += 1;
        }
        table[a][count] = Detour {
            b: OPPOSITE_SLOT[a] as u32 * CODE_BITS,
            c: NO_SLOT_BITS,
            class: BACK << (2 * CODE_BITS),
        };
        a += 1;
    }
    table
}

/// Representative slots of the [`DETOURS`] classes: (arrival, next move, direct step) as
/// straight (0) or diagonal (4) slots. A base price depends on its slot only through whether
/// it is straight or diagonal (see `base_cost`).
const CLASS_SLOTS: [(usize, usize, usize); 3] = [(0, 0, 4), (0, 4, 0), (4, 0, 0)];

/// For each detour class and pair of codes `(code_a, code_b)` of the arrival and the next
/// move, the set of codes (bit `code_c`) of a direct step from the parent that dominates the
/// detour: rising `rise(a) + rise(b)` at a base price of at most `base(a) + base(b)`; and in
/// class [`BACK`], bit 0 (the parent itself) when `b` falls `rise(a)`, back onto the parent.
/// Built from the pricing, so a search tests a detour with one load and one bit.
#[derive(Debug, Clone)]
struct DetourTable {
    /// `sets[(class * 64 + code_a) * 64 + code_b]`; code 0 (no move) is in no set but
    /// [`BACK`]'s, and the sets of a `code_b` of 0 are empty.
    sets: Vec<u64>,
}

impl DetourTable {
    const CODES: usize = 1 << CODE_BITS;
    /// The 3 classes of [`CLASS_SLOTS`] and [`BACK`]: a masked index needs no bounds check.
    const ENTRIES: usize = 4 * Self::CODES * Self::CODES;

    fn new(pricing: &Pricing, codes: usize) -> Self {
        let mut sets = vec![0u64; Self::ENTRIES];
        for (class, &(sa, sb, sc)) in CLASS_SLOTS.iter().enumerate() {
            for code_a in 1..=codes as u64 {
                let a = pricing.step(sa, code_a);
                for code_b in 1..=codes as u64 {
                    let b = pricing.step(sb, code_b);
                    let mut set = 0;
                    for code_c in 1..=codes as u64 {
                        let c = pricing.step(sc, code_c);
                        if c.dy == a.dy + b.dy
                            && u64::from(c.base) <= u64::from(a.base) + u64::from(b.base)
                        {
                            set |= 1 << code_c;
                        }
                    }
                    sets[(class * Self::CODES + code_a as usize) * Self::CODES + code_b as usize] =
                        set;
                }
            }
        }
        // A rise belongs to the shape, whatever the slot.
        for code_a in 1..=codes as u64 {
            for code_b in 1..=codes as u64 {
                if pricing.step(0, code_b).dy == -pricing.step(0, code_a).dy {
                    sets[(BACK * Self::CODES + code_a as usize) * Self::CODES + code_b as usize] =
                        1;
                }
            }
        }
        Self { sets }
    }

    /// The moves of `word` (the moves of a node `n`) that `n`'s parent `p` dominates, as a
    /// mask of their codes' bits: `arrival` is the horizontal move `a` (slot and code) that
    /// reached `n` from `p`, with `p`'s moves word. A horizontal move `b` from `n` to `m` is
    /// dominated when `p` has a move in the slot of `dir(a) + dir(b)` rising
    /// `rise(a) + rise(b)` (so it lands on `m` itself) at a base price of at most
    /// `base(a) + base(b)`: both routes pay `m`'s terms, the route through `n` pays `n`'s on
    /// top, so `g(p) + cost(p, m) <= g(n) + cost(n, m)`. `p`, expanded when it set `n`'s
    /// record at `g(p) + cost(a)`, relaxed `m` then (or dropped the move, `m` being its own
    /// parent or dominated in turn, reached cheaper still), and records only get cheaper:
    /// the move through `n` would fail the relaxation test anyway, so skipping it changes
    /// nothing the search does (the same expansions, pushes and partial routes), only spares
    /// the lookup of `m`. The move back from `n` to `p` itself is in the mask too: it never
    /// improves `p`, whose `g` can only have dropped since `n`'s was set from it.
    #[expect(
        clippy::inline_always,
        reason = "left out of line by the compiler, it cost 0.8% more instructions per expansion on the terrain queries of `benches/graph.rs`"
    )]
    #[inline(always)]
    fn dominated(&self, word: u64, (a, code_a, parent_word): (usize, u64, u64)) -> u64 {
        // One copy per arrival slot: constant shifts, and only the slot's own detours.
        match a {
            0 => self.dominated_from::<0, 5>(word, code_a, parent_word),
            1 => self.dominated_from::<1, 5>(word, code_a, parent_word),
            2 => self.dominated_from::<2, 5>(word, code_a, parent_word),
            3 => self.dominated_from::<3, 5>(word, code_a, parent_word),
            4 => self.dominated_from::<4, 3>(word, code_a, parent_word),
            5 => self.dominated_from::<5, 3>(word, code_a, parent_word),
            6 => self.dominated_from::<6, 3>(word, code_a, parent_word),
            _ => self.dominated_from::<7, 3>(word, code_a, parent_word),
        }
    }

    /// [`DetourTable::dominated`] for the arrival slot `A`, which has `N` detours.
    #[inline]
    fn dominated_from<const A: usize, const N: usize>(
        &self,
        word: u64,
        code_a: u64,
        parent_word: u64,
    ) -> u64 {
        let row = (code_a as usize) << CODE_BITS;
        let mut mask = 0;
        let mut i = 0;
        while i < N {
            let detour = DETOURS[A][i];
            let code_b = (word >> detour.b) & CODE_MASK;
            let code_c = (parent_word >> detour.c) & CODE_MASK;
            let set = self.sets[(detour.class | row | code_b as usize) & (Self::ENTRIES - 1)];
            mask |= ((set >> code_c) & 1) * (CODE_MASK << detour.b);
            i += 1;
        }
        mask
    }
}

const fn opposite_slots() -> [usize; 16] {
    let mut opposite = [0; 16];
    let mut slot = 0;
    while slot < super::SLOTS {
        let d = SLOT_DIRECTIONS[slot];
        let mut other = 0;
        while other < super::SLOTS {
            let e = SLOT_DIRECTIONS[other];
            if e.x == -d.x && e.y == -d.y && e.z == -d.z {
                opposite[slot] = other;
            }
            other += 1;
        }
        slot += 1;
    }
    opposite
}

const fn slot_parts(x: bool) -> [usize; 16] {
    let mut parts = [1; 16];
    let mut slot = 0;
    while slot < super::SLOTS {
        let d = SLOT_DIRECTIONS[slot];
        parts[slot] = (if x { d.x } else { d.z } + 1) as usize;
        slot += 1;
    }
    parts
}

impl GraphSearch {
    /// A search pricing moves at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the costs are out of range ([`MoveCosts::validate`]).
    pub fn new(costs: MoveCosts) -> Result<Self> {
        costs.validate()?;
        Ok(Self {
            core: Core {
                costs,
                pricing: Pricing::none(costs),
                open: OpenSet::default(),
                rises: [0; 1 << CODE_BITS],
                detours: DetourTable { sets: Vec::new() },
            },
            narrow: Records::default(),
            wide: Records::default(),
            last_narrow: true,
        })
    }

    /// The move costs.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.core.costs
    }

    /// Sizes the search's records for `graph` now rather than in the first search on it, so
    /// that no query pays for the memory (the first search on a larger graph does this
    /// itself).
    pub fn reserve_for(&mut self, graph: &NavGraph) {
        self.core.prepare(graph);
        if self.core.narrow_fits(graph) {
            self.narrow.reserve_for(graph);
        } else {
            self.wide.reserve_for(graph);
        }
    }

    /// The feet positions the last search on `graph` expanded, in id order: what it explored.
    pub fn explored<'a>(&'a self, graph: &'a NavGraph) -> impl Iterator<Item = IVec3> + 'a {
        let narrow = self.last_narrow.then(|| self.narrow.explored(graph));
        let wide = (!self.last_narrow).then(|| self.wide.explored(graph));
        narrow
            .into_iter()
            .flatten()
            .chain(wide.into_iter().flatten())
    }

    /// Finds a route over `graph` from the feet position `start` to the feet position `goal`.
    ///
    /// # Errors
    /// As [`NavGraph::check_current`]: [`Error::StaleGraph`] once the graph's world has
    /// changed without it, [`Error::GraphBroken`] after a failed update.
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either is not a node of the
    /// graph, with the reason [`NavGraph::node_or_reason`] gives (an unloaded chunk, outside
    /// the world or its height, else [`InvalidFeet::NotInGraph`]), [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`] for
    /// empty budgets.
    pub fn find_path(
        &mut self,
        graph: &NavGraph,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        graph.check_current()?;
        let start_id =
            node_of(graph, start).map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        let goal_id =
            node_of(graph, goal).map_err(|reason| Error::InvalidGoal { pos: goal, reason })?;
        let estimator = options.heuristic.estimator(&graph.agent, &self.core.costs);
        let local = goal - graph.bounds.min;
        let target = NodeTarget {
            node: goal_id,
            x: local.x,
            y: local.y,
            z: local.z,
            estimator,
        };
        let unweighted_octile =
            options.heuristic.kind() == HeuristicKind::Octile && options.heuristic.weight() <= 1.0;
        match OctileWeights::of(&estimator).filter(|_| unweighted_octile) {
            Some(weights) => {
                self.search_for(graph, start_id, &OctileTarget { target, weights }, options)
            }
            None => self.search_for(graph, start_id, &target, options),
        }
    }

    /// Searches `graph` from the feet position `start` until `goal` is reached, a budget runs
    /// out, or every node reachable from `start` has been expanded.
    ///
    /// A goal that is one block ([`Goal::block_target`]) is searched as
    /// [`GraphSearch::find_path`] does, testing the goal by node id.
    ///
    /// # Errors
    /// As [`GraphSearch::find_path`]; the goal is checked only when it names an exact target.
    pub fn search<G: Goal + ?Sized>(
        &mut self,
        graph: &NavGraph,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        if let Some(target) = goal.block_target() {
            return self.find_path(graph, start, target, options);
        }
        graph.check_current()?;
        let start_id =
            node_of(graph, start).map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        if let Some(target) = goal.exact_target() {
            node_of(graph, target).map_err(|reason| Error::InvalidGoal {
                pos: target,
                reason,
            })?;
        }
        let target = AnyGoal {
            goal,
            estimator: options.heuristic.estimator(&graph.agent, &self.core.costs),
            min: graph.bounds.min,
        };
        self.search_for(graph, start_id, &target, options)
    }

    /// [`GraphSearch::search`] from the node `start_id` for a checked goal.
    fn search_for<T: Target>(
        &mut self,
        graph: &NavGraph,
        start_id: NodeId,
        goal: &T,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        // A graph is always bounded.
        options.check_budgets(true)?;
        self.core.prepare(graph);
        self.last_narrow = self.core.narrow_fits(graph);
        // One loop for searches a budget can stop and one, leaner, for those it cannot.
        let budgeted = options.max_nodes.is_some() || options.max_time.is_some();
        let core = &mut self.core;
        let result = match (self.last_narrow, budgeted) {
            (true, true) => {
                core.run::<_, _, true>(&mut self.narrow, graph, start_id, goal, options, started)
            }
            (true, false) => {
                core.run::<_, _, false>(&mut self.narrow, graph, start_id, goal, options, started)
            }
            (false, true) => {
                core.run::<_, _, true>(&mut self.wide, graph, start_id, goal, options, started)
            }
            (false, false) => {
                core.run::<_, _, false>(&mut self.wide, graph, start_id, goal, options, started)
            }
        };
        Ok(result)
    }
}

impl Core {
    /// Refreshes the pricing and the rises for `graph`.
    fn prepare(&mut self, graph: &NavGraph) {
        if !self.pricing.fits(graph, &self.costs) {
            self.pricing = Pricing::new(graph, self.costs);
            self.detours = DetourTable::new(&self.pricing, graph.shapes.len());
        }
        for (code, shape) in graph.shapes.iter().enumerate() {
            self.rises[code + 1] = shape.dy;
        }
    }

    /// Whether every cost a search on `graph` can reach fits the [`Narrow`] records: a route
    /// visits each node at most once, so it has fewer than [`NavGraph::node_count`] moves,
    /// none dearer than the dearest base price plus the terms of every terrain flag the graph
    /// has held plus the largest extra cost it has held. (A record's cost is a route's: the
    /// search stores only costs that improve, so never one of a walk through its own node.)
    fn narrow_fits(&self, graph: &NavGraph) -> bool {
        // `terrain_cost` saturates, which only makes the bound fail.
        let terms =
            u64::from(terrain_cost(graph.terrain_seen, &self.costs)) + u64::from(graph.max_extra);
        let worst = u64::from(self.pricing.max_base) + terms;
        (graph.node_count() as u64)
            .checked_mul(worst)
            .is_some_and(|bound| bound < u64::from(u32::MAX))
    }

    /// The search; `BUDGETED` when a budget can stop it (then it keeps the partial route
    /// closest to the goal).
    fn run<T: Target, R: Record, const BUDGETED: bool>(
        &mut self,
        table: &mut Records<R>,
        graph: &NavGraph,
        start: NodeId,
        goal: &T,
        options: &SearchOptions,
        started: Instant,
    ) -> SearchResult {
        let budget = Budget::new(options, started);
        let open_stamp = table.next_stamp(graph);
        let closed_stamp = open_stamp + 1;
        let records = &mut table.entries[table.first..table.first + graph.id_bound()];
        let pricing = &self.pricing;
        let slots = &graph.slots[..];

        let mut stats = SearchStats::default();
        let start_h = goal.estimate(graph.feet(start) - graph.bounds.min);
        records[start as usize] = R::start(open_stamp);
        self.open.reset(start_h);
        self.open.push(start_h, 0, start);
        stats.generated = 1;
        let (mut best, mut best_h, mut best_g) = (start, start_h, 0u64);
        let mut budget_hit = false;

        while let Some((_, node)) = self.open.pop() {
            let current = records[node as usize];
            // The queue is exact and a node's `h` never changes, so the entry with a node's
            // lowest `g` (the current one) pops before its older ones, which find it closed.
            if current.stamp() != open_stamp {
                continue;
            }
            let current_g = current.g();
            let y = i32::from(slots[node as usize].y);
            let (x, z) = graph.xz(node);
            let local = IVec3::new(x, y, z);
            if goal.is_reached(node, local) {
                return self.finish(records, graph, SearchStatus::Found, node, stats, started);
            }
            if BUDGETED && budget.exhausted(stats.expanded) {
                budget_hit = true;
                break;
            }
            records[node as usize].set_stamp(closed_stamp);
            stats.expanded += 1;

            // The column of each slot's move, worked out once per expansion from the node's
            // own column (see `NavGraph::neighbour_offsets`).
            let column = if (node as usize) < graph.homes {
                node as usize
            } else {
                graph.column_index(x, z)
            };
            let (columns, rows) = graph.neighbour_offsets(column);
            let around: [usize; 16] = std::array::from_fn(|slot| {
                column
                    .wrapping_add(columns[SLOT_COLUMN[slot]])
                    .wrapping_add(rows[SLOT_ROW[slot]])
            });
            // Move by move from the lowest set bit: once the dominated moves are cleared, a
            // word has more empty slots than moves, and stepping slot by slot cost 2% more
            // instructions on the terrain queries of `benches/graph.rs`.
            let mut word = slots[node as usize].out;
            if let Some(arrival) = current.arrival(graph, pricing, node, y, &around) {
                word &= !self.detours.dominated(word, arrival);
            }
            while word != 0 {
                // The lowest move left: its slot from its lowest set bit by a table (no
                // division), then its code, which is cleared from the word.
                let slot = usize::from(SLOT_OF_BIT[word.trailing_zeros() as usize & 63]);
                let shift = slot as u32 * CODE_BITS;
                let code = (word >> shift) & CODE_MASK;
                word &= !(CODE_MASK << shift);
                let step = pricing.step(slot, code);
                let dy = step.dy;
                let column = around[slot & 15];
                let target_y = (y + dy) as u16;
                // The home slot holds the target unless its column has more than one node.
                let mut target = column as NodeId;
                let mut entry = slots[column];
                while entry.y != target_y {
                    target = entry.next;
                    if target == NO_NODE {
                        break;
                    }
                    entry = slots[target as usize];
                }
                if target == NO_NODE {
                    continue;
                }
                let terms = if entry.is_plain() {
                    0
                } else {
                    terrain_cost(entry.terrain, &self.costs)
                        .saturating_add(graph.extra_cost(target))
                };
                let cost = step.base.saturating_add(terms);
                let cost_here = current_g + u64::from(cost);
                let record = &mut records[target as usize];
                // Open and closed stamps differ only in the lowest bit. No move back to the
                // parent passes this test: its cost only adds to the parent's own.
                if record.stamp() >> 1 == open_stamp >> 1 && cost_here >= record.g() {
                    continue;
                }
                *record = R::reached(cost_here, open_stamp, node, slot, code);
                let direction = SLOT_DIRECTIONS[slot];
                let estimate = goal.estimate(local + IVec3::new(direction.x, dy, direction.z));
                self.open.push(cost_here + estimate, cost_here, target);
                stats.generated += 1;
                if BUDGETED && (estimate, cost_here) < (best_h, best_g) {
                    (best, best_h, best_g) = (target, estimate, cost_here);
                }
            }
        }

        if budget_hit {
            self.finish(records, graph, SearchStatus::Partial, best, stats, started)
        } else {
            stats.elapsed = started.elapsed();
            SearchResult::unreachable(stats)
        }
    }

    fn finish<R: Record>(
        &self,
        records: &[R],
        graph: &NavGraph,
        status: SearchStatus,
        end: NodeId,
        mut stats: SearchStats,
        started: Instant,
    ) -> SearchResult {
        let mut path = Vec::new();
        let mut node = end;
        while node != NO_NODE {
            path.push(graph.feet(node));
            node = records[node as usize].parent(graph, &self.rises, node);
        }
        path.reverse();
        stats.elapsed = started.elapsed();
        SearchResult {
            status,
            path,
            cost: Some(records[end as usize].g()),
            stats,
        }
    }
}

/// The goal as the search loop asks about it: by node and by feet position relative to the
/// graph's `bounds.min` (its local position).
trait Target {
    /// Whether `node`, at local position `local`, is a goal.
    fn is_reached(&self, node: NodeId, local: IVec3) -> bool;
    /// The estimate from the local position `local` to the goal.
    fn estimate(&self, local: IVec3) -> u64;
}

/// Any [`Goal`], asked about world positions.
struct AnyGoal<'a, G: ?Sized> {
    goal: &'a G,
    estimator: Estimator,
    /// The graph's `bounds.min`.
    min: IVec3,
}

impl<G: Goal + ?Sized> Target for AnyGoal<'_, G> {
    #[inline]
    fn is_reached(&self, _: NodeId, local: IVec3) -> bool {
        self.goal.is_reached(self.min + local)
    }
    #[inline]
    fn estimate(&self, local: IVec3) -> u64 {
        self.goal.estimate(self.min + local, &self.estimator)
    }
}

/// One node of the graph, as [`GraphSearch::find_path`] asks: the same answers as a
/// [`BlockGoal`](crate::BlockGoal) of its feet position (a node is its feet position, and the estimate is the
/// estimator's for the same differences), found from the node id and local coordinates,
/// whose differences fit `i32` (a graph is under 65 535 cells along each axis).
struct NodeTarget {
    node: NodeId,
    x: i32,
    y: i32,
    z: i32,
    estimator: Estimator,
}

impl Target for NodeTarget {
    #[inline]
    fn is_reached(&self, node: NodeId, _: IVec3) -> bool {
        node == self.node
    }
    #[inline]
    fn estimate(&self, local: IVec3) -> u64 {
        self.estimator.delta(
            (self.x - local.x).unsigned_abs(),
            i64::from(self.y - local.y),
            (self.z - local.z).unsigned_abs(),
        )
    }
}

/// The default heuristic, octile distance plus the climb or fall, as weights of the
/// distances: `side * hi + extra_diagonal * lo + ascend * rise` (or `descend * fall`), with
/// `lo` and `hi` the smaller and larger horizontal distance. Read from an [`Estimator`], so
/// that its estimates are the estimator's, with the weights in registers and no case to
/// decide per estimate.
#[derive(Debug, Clone, Copy)]
struct OctileWeights {
    side: u64,
    extra_diagonal: u64,
    ascend: u64,
    descend: u64,
}

impl OctileWeights {
    /// The weights of `estimator`, when its estimates are of this form: read from one step
    /// along each axis and diagonally, then checked against it at points near and far (up to
    /// the largest distances in a graph, under 65 535 cells, where no estimate saturates).
    /// The far points put every term at its largest, each sum is checked for overflow, and
    /// the estimator saturates where the sums would grow large, so weights that pass give
    /// [`OctileWeights::estimate`] no overflow anywhere in a graph, whatever the costs.
    fn of(estimator: &Estimator) -> Option<Self> {
        let side = estimator.delta(1, 0, 0);
        let weights = Self {
            side,
            extra_diagonal: estimator.delta(1, 0, 1).checked_sub(side)?,
            ascend: estimator.delta(0, 1, 0),
            descend: estimator.delta(0, -1, 0),
        };
        let probes = [
            (0, 0, 0),
            (2, 1, 7),
            (9, -4, 3),
            (5, 5, 5),
            (1_000, -7, 13),
            (65_534, 65_534, 1),
            (65_534, 65_534, 65_534),
            (65_534, -65_534, 65_534),
        ];
        probes
            .iter()
            .all(|&(dx, dy, dz)| {
                weights.checked_estimate(dx, dy, dz) == Some(estimator.delta(dx, i64::from(dy), dz))
            })
            .then_some(weights)
    }

    /// [`OctileWeights::estimate`], `None` on overflow.
    fn checked_estimate(self, dx: u32, dy: i32, dz: u32) -> Option<u64> {
        let (lo, hi) = (u64::from(dx.min(dz)), u64::from(dx.max(dz)));
        let weight = if dy >= 0 { self.ascend } else { self.descend };
        let vertical = weight.checked_mul(u64::from(dy.unsigned_abs()))?;
        self.side
            .checked_mul(hi)?
            .checked_add(self.extra_diagonal.checked_mul(lo)?)?
            .checked_add(vertical)
    }

    #[inline]
    fn estimate(self, dx: u32, dy: i32, dz: u32) -> u64 {
        let (lo, hi) = (u64::from(dx.min(dz)), u64::from(dx.max(dz)));
        let vertical = if dy >= 0 {
            self.ascend * u64::from(dy.unsigned_abs())
        } else {
            self.descend * u64::from(dy.unsigned_abs())
        };
        self.side * hi + self.extra_diagonal * lo + vertical
    }
}

/// A [`NodeTarget`] whose estimator has [`OctileWeights`].
struct OctileTarget {
    target: NodeTarget,
    weights: OctileWeights,
}

impl Target for OctileTarget {
    #[inline]
    fn is_reached(&self, node: NodeId, _: IVec3) -> bool {
        node == self.target.node
    }
    #[inline]
    fn estimate(&self, local: IVec3) -> u64 {
        let target = &self.target;
        self.weights.estimate(
            (target.x - local.x).unsigned_abs(),
            target.y - local.y,
            (target.z - local.z).unsigned_abs(),
        )
    }
}

/// The node of `feet`, or why there is none.
fn node_of(graph: &NavGraph, feet: IVec3) -> Result<NodeId, InvalidFeet> {
    graph.node_or_reason(feet)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::agent::Agent;
    use crate::search::heuristic::Heuristic;

    /// Horizontal distances and climbs across a large graph.
    fn deltas() -> impl Iterator<Item = (u32, i32, u32)> {
        (0..3_000u32).step_by(211).flat_map(|dx| {
            (0..3_000u32)
                .step_by(307)
                .flat_map(move |dz| (-600..600).step_by(97).map(move |dy| (dx, dy, dz)))
        })
    }

    #[test]
    fn octile_weights_give_the_estimators_own_estimates() {
        let no_diagonals = Agent {
            diagonals: false,
            ..Agent::default()
        };
        for agent in [Agent::default(), no_diagonals] {
            for costs in [MoveCosts::default(), MoveCosts::octile()] {
                let estimator = Heuristic::default().estimator(&agent, &costs);
                let weights = OctileWeights::of(&estimator).expect("octile has these weights");
                for (dx, dy, dz) in deltas() {
                    assert_eq!(
                        weights.estimate(dx, dy, dz),
                        estimator.delta(dx, i64::from(dy), dz),
                        "{dx} {dy} {dz}"
                    );
                }
            }
        }
        let euclidean = Heuristic::new(HeuristicKind::Euclidean)
            .estimator(&Agent::default(), &MoveCosts::default());
        assert!(OctileWeights::of(&euclidean).is_none());
    }
}
