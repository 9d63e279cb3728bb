//! A* over a [`NavGraph`]: per-node records in one flat array indexed by node id, a search
//! stamp instead of clearing between queries, the radix-heap open set, and no allocation per
//! expansion.

use std::time::Instant;

use glam::IVec3;

use super::{CODE_BITS, CODE_MASK, NO_NODE, NavGraph, NodeId, Pricing, SLOT_DIRECTIONS};
use crate::error::{Error, Result};
use crate::moves::agent::MoveCosts;
use crate::moves::terrain_cost;
use crate::search::open::OpenSet;
use crate::search::{
    BlockGoal, Budget, Goal, SearchOptions, SearchResult, SearchStats, SearchStatus,
};
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
    /// `word`, the moves of this record's node, without the move back to the node it was
    /// reached from where the record tells it cheaply, since that move never improves the
    /// parent: the parent's `g` can only have dropped since this node's `g` was set from it.
    fn without_move_back(self, word: u64, pricing: &Pricing) -> u64;
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
    fn without_move_back(self, word: u64, _: &Pricing) -> u64 {
        word
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
    fn without_move_back(self, word: u64, pricing: &Pricing) -> u64 {
        let slot = ((self.tag >> 6) & 15) as usize;
        if slot == START_SLOT as usize {
            return word;
        }
        // The move back leaves by the opposite slot and undoes the rise: it reaches the
        // parent's column at the parent's height. (A slot without a move has rise 0 in the
        // table, and clearing its empty code changes nothing.)
        let rise = pricing.step(slot, u64::from(self.tag) & CODE_MASK).dy;
        let back = OPPOSITE_SLOT[slot];
        let shift = back as u32 * CODE_BITS;
        if pricing.step(back, (word >> shift) & CODE_MASK).dy == -rise {
            word & !(CODE_MASK << shift)
        } else {
            word
        }
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
            // being of no use to the searches to come.
            let padding = 64 / std::mem::size_of::<R>();
            self.entries = vec![R::default(); graph.id_bound() + padding];
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
/// [`Pathfinder`](crate::Pathfinder) and returns the same [`SearchResult`]; the routes'
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
#[derive(Debug, Clone)]
pub struct GraphSearch {
    core: Core,
    narrow: Records<Narrow>,
    wide: Records<Wide>,
    /// Whether the last search used the narrow records.
    last_narrow: bool,
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
}

/// Per slot (padded to 16), `dx + 1` and `dz + 1` of its direction: which of the three
/// columns and rows around a node the move goes to.
const SLOT_COLUMN: [usize; 16] = slot_parts(true);
const SLOT_ROW: [usize; 16] = slot_parts(false);

/// Per slot (padded to 16), the slot of the opposite direction.
const OPPOSITE_SLOT: [usize; 16] = opposite_slots();

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
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either is not a node of the
    /// graph ([`InvalidFeet::OutOfWorld`] outside its bounds, else
    /// [`InvalidFeet::NotInGraph`]), [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`] for
    /// empty budgets.
    pub fn find_path(
        &mut self,
        graph: &NavGraph,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.search(graph, start, &BlockGoal(goal), options)
    }

    /// Searches `graph` from the feet position `start` until `goal` is reached, a budget runs
    /// out, or every node reachable from `start` has been expanded.
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
        let started = Instant::now();
        let start_id =
            node_of(graph, start).map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        if let Some(target) = goal.exact_target() {
            node_of(graph, target).map_err(|reason| Error::InvalidGoal {
                pos: target,
                reason,
            })?;
        }
        if options.max_nodes == Some(0) {
            return Err(Error::ZeroBudget);
        }
        if options.max_time.is_some_and(|t| t.is_zero()) {
            return Err(Error::ZeroTimeBudget);
        }
        self.core.prepare(graph);
        self.last_narrow = self.core.narrow_fits(graph);
        let result = if self.last_narrow {
            self.core
                .run(&mut self.narrow, graph, start_id, goal, options, started)
        } else {
            self.core
                .run(&mut self.wide, graph, start_id, goal, options, started)
        };
        Ok(result)
    }
}

impl Core {
    /// Refreshes the pricing and the rises for `graph`.
    fn prepare(&mut self, graph: &NavGraph) {
        if !self.pricing.fits(graph, &self.costs) {
            self.pricing = Pricing::new(graph, self.costs);
        }
        for (code, shape) in graph.shapes.iter().enumerate() {
            self.rises[code + 1] = shape.dy;
        }
    }

    /// Whether every cost a search on `graph` can reach fits the [`Narrow`] records: a route
    /// visits each node at most once, so it has fewer than [`NavGraph::id_bound`] moves, none
    /// dearer than the dearest base price plus every terrain term plus the largest extra cost
    /// the graph has held.
    fn narrow_fits(&self, graph: &NavGraph) -> bool {
        let costs = &self.costs;
        let terms = [
            costs.water,
            costs.slow_floor,
            costs.danger,
            costs.door,
            costs.cobweb,
            graph.max_extra,
        ]
        .iter()
        .map(|&c| u64::from(c))
        .sum::<u64>();
        let worst = u64::from(self.pricing.max_base) + terms;
        (graph.id_bound() as u64)
            .checked_mul(worst)
            .is_some_and(|bound| bound < u64::from(u32::MAX))
    }

    fn run<G: Goal + ?Sized, R: Record>(
        &mut self,
        table: &mut Records<R>,
        graph: &NavGraph,
        start: NodeId,
        goal: &G,
        options: &SearchOptions,
        started: Instant,
    ) -> SearchResult {
        let estimator = options.heuristic.estimator(&graph.agent, &self.costs);
        let budget = Budget::new(options, started);
        let open_stamp = table.next_stamp(graph);
        let closed_stamp = open_stamp + 1;
        let records = &mut table.entries[table.first..table.first + graph.id_bound()];
        let pricing = &self.pricing;
        let min = graph.bounds.min;
        let slots = &graph.slots[..];

        let mut stats = SearchStats::default();
        let start_feet = graph.feet(start);
        let start_h = goal.estimate(start_feet, &estimator);
        records[start as usize] = R::start(open_stamp);
        self.open.reset(start_h);
        self.open.push(start_h, 0, start);
        stats.generated = 1;
        // The partial route closest to the goal matters only when a budget can stop the search.
        let track_best = options.max_nodes.is_some() || options.max_time.is_some();
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
            let feet = min + IVec3::new(x, y, z);
            if goal.is_reached(feet) {
                return self.finish(records, graph, SearchStatus::Found, node, stats, started);
            }
            if budget.exhausted(stats.expanded) {
                budget_hit = true;
                break;
            }
            records[node as usize].set_stamp(closed_stamp);
            stats.expanded += 1;

            // The column index parts of the rows and columns around the node (see
            // `NavGraph::row_part`); those past the world's edge are never used, since no move
            // leaves the world, and are clamped only to keep the arithmetic in range.
            let rows = [
                graph.row_part((z - 1).max(0)),
                graph.row_part(z),
                graph.row_part(z + 1),
            ];
            let columns = [
                NavGraph::x_part((x - 1).max(0)),
                NavGraph::x_part(x),
                NavGraph::x_part(x + 1),
            ];
            // The column of each slot's move, worked out once per expansion.
            let around: [usize; 16] =
                std::array::from_fn(|slot| rows[SLOT_ROW[slot]] + columns[SLOT_COLUMN[slot]]);
            // Slot by slot, shifting the word down: cheaper than finding each move's slot from
            // its lowest set bit, and a node's empty slots are mostly the ladders' last two.
            let mut word = current.without_move_back(slots[node as usize].out, pricing);
            let mut next_slot = 0;
            while word != 0 {
                let (slot, code) = (next_slot, word & CODE_MASK);
                next_slot += 1;
                word >>= CODE_BITS;
                if code == 0 {
                    continue;
                }
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
                let estimate =
                    goal.estimate(feet + IVec3::new(direction.x, dy, direction.z), &estimator);
                self.open.push(cost_here + estimate, cost_here, target);
                stats.generated += 1;
                if track_best && (estimate, cost_here) < (best_h, best_g) {
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

/// The node of `feet`, or why there is none.
fn node_of(graph: &NavGraph, feet: IVec3) -> Result<NodeId, InvalidFeet> {
    if !graph.bounds.contains(feet) {
        return Err(InvalidFeet::OutOfWorld);
    }
    graph.node(feet).ok_or(InvalidFeet::NotInGraph)
}
