//! One cell of the hierarchy: its portals, the exact costs between them, and the searches
//! that stay inside one cell (the query's first and last legs, and the refinement of an
//! overlay edge into walk moves).

use ahash::AHashMap;
use glam::IVec3;
use std::collections::hash_map::Entry;

use crate::error::Result;
use crate::graph::{ID_PAGE_SHIFT, NavGraph, NodeId, Pricing};
use crate::moves::agent::MoveCosts;
use crate::search::heuristic::Estimator;

use crate::search::open::OpenSet;

mod lanes;
mod rows;

/// The side of a cell in blocks: a chunk column.
pub(super) const CELL_SIDE: i32 = 16;

/// The cost in a cell's table of a portal that the other cannot reach inside the cell.
pub(super) const UNREACHED: u32 = u32::MAX;

/// A cell's name: the chunk coordinates of its column.
pub(super) type Chunk = [i32; 2];

/// The cell holding the feet position `feet` (a floor division by 16, negative coordinates
/// included).
#[inline]
pub(super) fn chunk_of(feet: IVec3) -> Chunk {
    [feet.x.div_euclid(CELL_SIDE), feet.z.div_euclid(CELL_SIDE)]
}

/// Whether the feet position `feet` lies in a column on the border of its cell, the only
/// columns whose nodes can have a move to or from another cell (moves span one column).
#[inline]
pub(super) fn on_border(feet: IVec3) -> bool {
    let (x, z) = (feet.x.rem_euclid(CELL_SIDE), feet.z.rem_euclid(CELL_SIDE));
    x == 0 || z == 0 || x == CELL_SIDE - 1 || z == CELL_SIDE - 1
}

/// The chunks a node at `feet` shares a border with (its own among them), none for an
/// inner column: a move across that border makes portals on both sides.
pub(super) fn across(feet: IVec3) -> impl Iterator<Item = Chunk> {
    let near = (-1..=1).flat_map(move |dx| (-1..=1).map(move |dz| IVec3::new(dx, 0, dz)));
    near.filter(move |_| on_border(feet))
        .map(move |d| chunk_of(feet + d))
}

/// Whether node `id` of cell `chunk` has a move to or from another cell.
pub(super) fn is_portal(graph: &NavGraph, costs: &MoveCosts, id: NodeId, chunk: Chunk) -> bool {
    let mut crosses = false;
    graph.for_each_move(id, costs, |step| crosses |= chunk_of(step.feet) != chunk);
    if !crosses {
        graph.for_each_incoming(id, costs, |step| crosses |= chunk_of(step.feet) != chunk);
    }
    crosses
}

/// The portals and table of one cell, as [`derive()`] finds them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Derived {
    /// The portals, ordered by local x, local z, then feet y.
    pub(super) portals: Vec<NodeId>,
    /// `table[i * n + j]`: the cheapest route inside the cell from portal `i` to portal `j`,
    /// [`UNREACHED`] when there is none.
    pub(super) table: Vec<u32>,
    /// Against the table [`Before`] gave, when the portals are the same: found while the
    /// rows are written, so an update needs no second pass over the old table.
    pub(super) against_before: Option<Difference>,
}

/// How a derived table differs from the one before over the same portals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Difference {
    /// Some entry differs.
    pub(super) changed: bool,
    /// Some entry is cheaper than before, or reached where it was not.
    pub(super) cheaper: bool,
    /// Some entry reached before is not any more.
    pub(super) lost: bool,
}

/// Reusable buffers of [`derive()`]: the cell's nodes reachable from its portals numbered
/// locally, their moves inside the cell in one flat list, and the row searches' state.
#[derive(Debug, Default, Clone)]
pub(super) struct DeriveScratch {
    /// Local numbers of the nodes in the home page of the cell's column (its first feet
    /// position in each of its 256 columns), read by place in the page (`u32::MAX`: none
    /// yet); of other nodes (further down a column's chain), hashed. Hashing every node cost
    /// 3.5% of an edit's update (callgrind, `long --size 1024 --edits 200`: 375.3 M against
    /// 362.1 M).
    home_page: u32,
    home_local: Vec<u32>,
    local: AHashMap<NodeId, u32>,
    nodes: Vec<NodeId>,
    first_edge: Vec<u32>,
    edges: Vec<(u32, u32)>,
    /// The graph's moves priced at the costs of the last derivation, kept while they fit.
    pricing: Option<Pricing>,
    rows: rows::RowScratch,
    lanes: lanes::LaneScratch,
    /// The rows a derivation searches, and each numbered node's column in the cell for
    /// [`lanes::LaneScratch::rows`].
    searched: Vec<usize>,
    columns: Vec<u8>,
    /// The moves turned around for a derivation from [`Before`]: node `i`'s sources are
    /// `into_from[into_first[i]..into_first[i + 1]]`; and which nodes reach a changed one.
    into_first: Vec<u32>,
    into_from: Vec<u32>,
    reaches: Vec<bool>,
    /// A cell's table before an update, kept here for its allocation by the caller of
    /// [`derive()`] that fills it.
    pub(super) before: Vec<u32>,
}

impl DeriveScratch {
    /// The local number of node `id`, given one if it has none yet.
    #[inline]
    fn intern(&mut self, id: NodeId) -> u32 {
        let next = self.nodes.len() as u32;
        if id >> ID_PAGE_SHIFT == self.home_page {
            let local = &mut self.home_local[(id & HOME_MASK) as usize];
            if *local == u32::MAX {
                *local = next;
                self.nodes.push(id);
            }
            return *local;
        }
        *self.local.entry(id).or_insert_with(|| {
            self.nodes.push(id);
            next
        })
    }

    /// The local number of node `id`, if it has one.
    #[inline]
    fn local_of(&self, id: NodeId) -> Option<u32> {
        if id >> ID_PAGE_SHIFT == self.home_page {
            Some(self.home_local[(id & HOME_MASK) as usize]).filter(|&local| local != u32::MAX)
        } else {
            self.local.get(&id).copied()
        }
    }
}

/// The bits of an id below [`ID_PAGE_SHIFT`]: its place in its page.
const HOME_MASK: NodeId = (1 << ID_PAGE_SHIFT) - 1;

/// Sorts `portals` into the canonical order (local x, local z, feet y), so that a cell
/// derived after an update lists them as a fresh build does.
pub(super) fn sort_portals(graph: &NavGraph, portals: &mut [NodeId]) {
    // Keys read once per portal: `feet` decodes the node's record, and a comparison sort
    // asked for it about 2 log n times per portal (a tenth of an edit's instructions).
    portals.sort_by_cached_key(|&id| {
        let feet = graph.feet(id);
        (
            feet.x.rem_euclid(CELL_SIDE),
            feet.z.rem_euclid(CELL_SIDE),
            feet.y,
        )
    });
}

/// What a cell was before an update, for [`derive()`] to search again only the table rows
/// the update can change: the cell's portals then (in any order), the cost between two of
/// them by their places in that list, and the update's `changed` nodes (every live node
/// whose moves out may differ since then, added ones included:
/// [`crate::graph::GraphUpdate::changed`]).
///
/// When the portals are the same, only the rows of portals that reach a changed node inside
/// the cell are searched again: a portal whose reach holds none sees the same moves at the
/// same costs as before, so its row cannot differ. (A route it had through a node since
/// removed or changed passes through a first node whose moves out changed, a move to the
/// removed node among them, and that node it still reaches.) The portals that reach a
/// changed node are found with one search backwards from the changed nodes over the cell's
/// moves instead of one per portal. Where cliffs, water and caves split a cell, a block
/// edit's cell searches again a fraction of its rows: 9% fewer instructions per edit on the
/// 1.21.11 save (`reach_edit --edits 200 --long-routes`), 2.4% on the built-in hills
/// (`long --size 1024 --edits 200`), whose portals mostly reach each other. Stopping the
/// backwards search once every portal is marked did not pay (200 edits at 1024, landmarks
/// current, callgrind on `'*Abstraction*update*'`: 362.8 M to 363.1 M): turning the moves
/// around costs more than the search; on the median edit (1.10 M) the marking took about
/// 50 K and spared one row of 20 (28 K).
/// Nor did marking by passes over the moves, last node first, until a pass marks none or
/// every portal is marked (no moves turned around), with the search backwards after 8
/// passes: median edit 1.061 M to 1.031 M but 200 edits 346.9 M to 350.5 M (with the
/// portals left marked after 6 passes: 349.4 M; the search after 2: 353.1 M).
///
/// [`derive()`] compares the table with the one before as it goes ([`Difference`]): an
/// update leaves a cell whose table came out as it was untouched (median edit 1.090 M to
/// 1.061 M, 200 edits 355.8 M to 346.9 M).
pub(super) struct Before<'a> {
    portals: &'a [NodeId],
    cost: &'a dyn Fn(usize, usize) -> Option<u32>,
    changed: &'a [NodeId],
}

impl<'a> Before<'a> {
    pub(super) fn new(
        portals: &'a [NodeId],
        cost: &'a dyn Fn(usize, usize) -> Option<u32>,
        changed: &'a [NodeId],
    ) -> Self {
        Self {
            portals,
            cost,
            changed,
        }
    }

    /// The place in the list before of each of `portals`, if they are the same portals.
    fn places(&self, portals: &[NodeId]) -> Option<Vec<usize>> {
        if portals.len() != self.portals.len() {
            return None;
        }
        portals
            .iter()
            .map(|id| self.portals.iter().position(|old| old == id))
            .collect()
    }

    /// The cost before from the portal at place `from` to the one at place `to`.
    #[inline]
    fn cost(&self, from: usize, to: usize) -> u32 {
        (self.cost)(from, to).unwrap_or(UNREACHED)
    }
}

/// The table of the cell `chunk` whose portals are `portals` (in canonical order): the rows
/// of every portal, or of each portal whose row the changes since `before` can reach, searched
/// over the moves that stay inside the cell, together in vector lanes ([`lanes`]) when the
/// cell's routes fit 16 bits, else one Dijkstra per row ([`rows`]).
///
/// # Errors
/// [`Error::GraphTooLarge`](crate::error::Error::GraphTooLarge) when a cost inside the cell does not fit 32 bits (costs that
/// large need a wider table than this one keeps).
pub(super) fn derive(
    graph: &NavGraph,
    costs: &MoveCosts,
    chunk: Chunk,
    portals: Vec<NodeId>,
    before: Option<Before<'_>>,
    scratch: &mut DeriveScratch,
) -> Result<Derived> {
    number(graph, costs, &portals, scratch);
    let before = before.and_then(|before| Some((before.places(&portals)?, before)));
    if let Some((_, before)) = &before {
        scratch.mark_reaching(before.changed);
    }
    let n = portals.len();
    let mut table = vec![UNREACHED; n * n];
    let plan = rows::Plan::for_cell(scratch.nodes.len(), scratch.max_cost());
    let mut searched = std::mem::take(&mut scratch.searched);
    searched.clear();
    for (from, row) in table.chunks_exact_mut(n.max(1)).enumerate().take(n) {
        match &before {
            Some((places, before)) if !scratch.reaches[from] => {
                for (to, cost) in row.iter_mut().enumerate() {
                    *cost = before.cost(places[from], places[to]);
                }
            }
            _ => searched.push(from),
        }
    }
    let moves = rows::Moves {
        first_edge: &scratch.first_edge,
        edges: &scratch.edges,
    };
    // With no row to search, the columns are not looked up.
    if !searched.is_empty() && lanes::fit(moves) {
        let mut columns = std::mem::take(&mut scratch.columns);
        columns.clear();
        columns.extend(scratch.nodes.iter().map(|&id| {
            let feet = graph.feet(id);
            (feet.x.rem_euclid(CELL_SIDE) * CELL_SIDE + feet.z.rem_euclid(CELL_SIDE)) as u8
        }));
        scratch
            .lanes
            .rows(moves, &columns, &searched, n, &mut table);
        scratch.columns = columns;
    } else {
        for &from in &searched {
            let row = &mut table[from * n..(from + 1) * n];
            scratch.rows.fill(moves, plan, chunk, from, row)?;
        }
    }
    scratch.searched = searched;
    let against_before = before.map(|(places, before)| {
        let mut difference = Difference::default();
        for (from, row) in table.chunks_exact(n.max(1)).enumerate().take(n) {
            for (to, &cost) in row.iter().enumerate() {
                let was = before.cost(places[from], places[to]);
                if cost != was {
                    difference.changed = true;
                    difference.cheaper |= cost < was;
                    difference.lost |= cost == UNREACHED;
                }
            }
        }
        difference
    });
    Ok(Derived {
        portals,
        table,
        against_before,
    })
}

/// `work(scratch, cell)` for every cell of `cells`, the results in their order: on rayon's
/// current thread pool with the `rayon` feature (a scratch per worker), else one after the
/// other. Each call reads the graph and its own cell only, so the results do not depend on
/// the threads; the caller applies them in order.
pub(super) fn map_cells<T: Send>(
    cells: std::ops::Range<usize>,
    work: impl Fn(&mut DeriveScratch, usize) -> T + Sync + Send,
) -> Vec<T> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        // Runs of cells per task, so a worker's scratch keeps its allocations a while.
        cells
            .into_par_iter()
            .with_min_len(16)
            .map_init(DeriveScratch::default, work)
            .collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        let mut scratch = DeriveScratch::default();
        cells.map(|cell| work(&mut scratch, cell)).collect()
    }
}

/// Numbers the nodes of cell `chunk` reachable from `portals` inside it (the portals first,
/// in their order) and lists their moves inside the cell: every route between two portals
/// starts at a portal, so these nodes are all a table needs. The moves come from
/// [`NavGraph::for_each_move_in_chunk`] at a pricing kept in the scratch: through
/// [`NavGraph::for_each_move`] and a chunk test per move, `number` took 84.3 M of 539.4 M
/// update instructions, 53.9 M of 509.0 M, 41.7 M of 431.4 M with the target's record kept
/// and faster rows (callgrind on `'*Abstraction*update*'`,
/// `long --size 1024 --pairs 1 --edits 200 --refresh-landmarks`); interning each target as
/// it is read, rather than after the node's moves are gathered in a list, is 4.5 M of that.
// Not inlined (nor the row searches): inlined into `derive`, an edit's abstraction update took
// 3.4% more instructions (callgrind, `long --size 1024 --edits 200`: 431.7 M against 417.4 M).
#[inline(never)]
fn number(graph: &NavGraph, costs: &MoveCosts, portals: &[NodeId], scratch: &mut DeriveScratch) {
    scratch.local.clear();
    scratch.home_page = portals
        .first()
        .map_or(u32::MAX, |&portal| graph.home_of(portal) >> ID_PAGE_SHIFT);
    scratch.home_local.clear();
    scratch.home_local.resize(1 << ID_PAGE_SHIFT, u32::MAX);
    scratch.nodes.clear();
    scratch.first_edge.clear();
    scratch.edges.clear();
    for &portal in portals {
        scratch.intern(portal);
    }
    let pricing = match scratch.pricing.take() {
        Some(pricing) if pricing.fits(graph, costs) => pricing,
        _ => Pricing::new(graph, *costs),
    };
    let mut next = 0;
    while next < scratch.nodes.len() {
        let id = scratch.nodes[next];
        scratch.first_edge.push(scratch.edges.len() as u32);
        graph.for_each_move_in_chunk(id, &pricing, |target, cost| {
            let local = scratch.intern(target);
            scratch.edges.push((local, cost));
        });
        next += 1;
    }
    scratch.first_edge.push(scratch.edges.len() as u32);
    scratch.pricing = Some(pricing);
}

impl DeriveScratch {
    /// The dearest move [`number`] listed.
    fn max_cost(&self) -> u32 {
        self.edges.iter().map(|&(_, cost)| cost).max().unwrap_or(0)
    }

    /// Sets `reaches[i]` for every numbered node `i` with a route inside the cell to one of
    /// the `changed` nodes (itself changed included): one search backwards over the moves
    /// [`number`] listed, turned around.
    fn mark_reaching(&mut self, changed: &[NodeId]) {
        let count = self.nodes.len();
        // The moves into each node, grouped by target (a counting sort of the move list).
        self.into_first.clear();
        self.into_first.resize(count + 1, 0);
        for &(target, _) in &self.edges {
            self.into_first[target as usize + 1] += 1;
        }
        for i in 0..count {
            self.into_first[i + 1] += self.into_first[i];
        }
        self.into_from.clear();
        self.into_from.resize(self.edges.len(), 0);
        let mut fill = self.into_first[..count].to_vec();
        for source in 0..count {
            let edges = self.first_edge[source] as usize..self.first_edge[source + 1] as usize;
            for &(target, _) in &self.edges[edges] {
                let at = &mut fill[target as usize];
                self.into_from[*at as usize] = source as u32;
                *at += 1;
            }
        }
        self.reaches.clear();
        self.reaches.resize(count, false);
        let mut stack: Vec<u32> = changed.iter().filter_map(|&id| self.local_of(id)).collect();
        for &node in &stack {
            self.reaches[node as usize] = true;
        }
        while let Some(node) = stack.pop() {
            let sources = self.into_first[node as usize] as usize
                ..self.into_first[node as usize + 1] as usize;
            for &source in &self.into_from[sources] {
                if !self.reaches[source as usize] {
                    self.reaches[source as usize] = true;
                    stack.push(source);
                }
            }
        }
    }
}

/// A search that stays inside one cell, forwards over moves or backwards over incoming
/// moves, exhaustive or toward one target: the legs of a query that the table does not
/// cover.
#[derive(Debug, Default, Clone)]
pub(super) struct CellSearch {
    /// Per reached node: its cost and the node it was reached from (for a backward search,
    /// the node it leads to), [`crate::graph::NO_NODE`] for a source.
    best: AHashMap<NodeId, Reached>,
    /// Ordered by `g` plus the estimate; equal keys deepest first, which on flat ground
    /// (many equal keys under the octile estimate) goes straight for the target where the
    /// binary heap's shallowest-first order spread out: the abstraction's windows took 27%
    /// fewer instructions (callgrind, `long --size 1024 --pairs 20`: 375 M to 272 M).
    heap: OpenSet,
    /// The moves of the node being expanded (kept for its allocation).
    steps: Vec<(NodeId, IVec3, u32)>,
    /// Nodes expanded by the last run.
    pub(super) expanded: u64,
}

/// A node a [`CellSearch`] reached.
#[derive(Debug, Clone, Copy)]
struct Reached {
    g: u64,
    parent: NodeId,
    /// Expanded at this `g`: an older entry of the node in the heap is stale.
    done: bool,
}

/// Which way a [`CellSearch`] follows moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    Forward,
    Backward,
}

impl CellSearch {
    /// Runs from `source` over the moves inside the cells of `region` (backwards over
    /// incoming moves for [`Direction::Backward`]). With a `target` (and the estimator toward its feet) this is
    /// A* that stops there and returns its cost; without one it reaches the whole cell and
    /// returns `None`.
    pub(super) fn run(
        &mut self,
        graph: &NavGraph,
        costs: &MoveCosts,
        region: &[Chunk],
        source: NodeId,
        direction: Direction,
        target: Option<(NodeId, IVec3, &Estimator)>,
    ) -> Option<u64> {
        self.best.clear();
        self.heap.reset(0);
        self.expanded = 0;
        self.best.insert(
            source,
            Reached {
                g: 0,
                parent: crate::graph::NO_NODE,
                done: false,
            },
        );
        let estimate =
            |feet: IVec3| target.map_or(0, |(_, goal, estimator)| estimator.between(feet, goal));
        self.heap.push(estimate(graph.feet(source)), 0, source);
        let mut steps = std::mem::take(&mut self.steps);
        let mut found = None;
        while let Some((_, node)) = self.heap.pop() {
            let Some(reached) = self.best.get_mut(&node) else {
                continue;
            };
            if reached.done {
                continue;
            }
            reached.done = true;
            let g = reached.g;
            if target.is_some_and(|(goal, _, _)| goal == node) {
                found = Some(g);
                break;
            }
            self.expanded += 1;
            steps.clear();
            let mut keep = |step: crate::graph::GraphMove| {
                if region.contains(&chunk_of(step.feet)) {
                    steps.push((step.node, step.feet, step.cost));
                }
            };
            match direction {
                Direction::Forward => graph.for_each_move(node, costs, &mut keep),
                Direction::Backward => graph.for_each_incoming(node, costs, &mut keep),
            }
            for &(next, feet, cost) in &steps {
                let g = g + u64::from(cost);
                let better = Reached {
                    g,
                    parent: node,
                    done: false,
                };
                match self.best.entry(next) {
                    Entry::Occupied(mut known) => {
                        if g >= known.get().g {
                            continue;
                        }
                        known.insert(better);
                    }
                    Entry::Vacant(vacant) => {
                        vacant.insert(better);
                    }
                }
                self.heap.push(g + estimate(feet), g, next);
            }
        }
        self.steps = steps;
        found
    }

    /// The cost of the last run's route to `node`, if it reached it.
    pub(super) fn cost(&self, node: NodeId) -> Option<u64> {
        self.best.get(&node).map(|reached| reached.g)
    }

    /// The nodes of the last run's route from its source to `node`: for a forward run, from
    /// the source to `node`; for a backward run, from `node` to the source. Appended to `out`
    /// without `node`'s end that is already there: a forward leg is appended without its
    /// source, a backward leg without `node`.
    pub(super) fn append_leg(
        &self,
        graph: &NavGraph,
        node: NodeId,
        direction: Direction,
        out: &mut Vec<IVec3>,
    ) {
        let mut chain = Vec::new();
        let mut at = node;
        while let Some(&Reached { parent, .. }) = self.best.get(&at) {
            if parent == crate::graph::NO_NODE {
                break;
            }
            chain.push(at);
            at = parent;
        }
        match direction {
            // `chain` runs from `node` back to just after the source.
            Direction::Forward => out.extend(chain.iter().rev().map(|&id| graph.feet(id))),
            // `chain` runs from `node` toward the source, which it leaves out: the leg is
            // every node after `node`, so drop `node` and add the source.
            Direction::Backward => {
                out.extend(chain.iter().skip(1).map(|&id| graph.feet(id)));
                if at != node {
                    out.push(graph.feet(at));
                }
            }
        }
    }
}
