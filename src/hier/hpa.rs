//! The inexact abstraction (HPA* style): one or two portal pairs per border entrance
//! instead of every border node, in-cell costs between those portals only, and a query that
//! searches the few portals and then smooths the route with a window two cells wide. See
//! the [module docs](super#the-inexact-abstraction-hpa) for the design and its figures.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use ahash::{AHashMap, AHashSet};
use glam::IVec3;

use super::Table;
use super::cell::{
    CELL_SIDE, CellSearch, Chunk, DeriveScratch, Direction, chunk_of, derive, on_border,
    sort_portals,
};
use super::query::end_nodes;
use crate::error::{Error, Result};
use crate::graph::{GraphSearch, GraphUpdate, NavGraph, NodeId};
use crate::moves::agent::MoveCosts;
use crate::search::heuristic::{Estimator, Heuristic};
use crate::search::{SearchOptions, SearchResult, SearchStats, SearchStatus};

/// An entrance gets one portal pair per this many crossings (rounded up), each in the middle
/// of its share: measured against Botea, Mueller and Schaeffer's rule (one pair in the
/// middle, or one at each end of entrances longer than 6), which left routes 2.2% above
/// optimal on average after smoothing (worst 4.3%), against 0.7% (worst 1.7%) for a pair
/// per 4 crossings and 0.5% (worst 0.9%) per 2, at 1.3x and 1.6x the windows' expansions
/// (`long --quick`, 20 pairs). A pair per 6 crossings cuts the memory by a quarter (67% of
/// the graph's at 2048 against 90%) and the expansions by 3%, for costs 0.8% above optimal
/// on average instead of 0.7%: too close to the 1% target.
const PORTAL_SPACING: usize = 4;

/// The cells a smoothing window spans along the abstract route: 3 and 4 cells cut the
/// average excess over the optimum from 2.2% to 2.1% and 2.0% only, for 1.6x and 2.2x the
/// expansions (`long --quick`, one pair per entrance), so the detour left is the cell
/// sequence's, not the fixed crossings'.
const WINDOW_CELLS: usize = 2;

/// One chosen move across a cell's border: the abstraction's edge between two cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Transition {
    from: NodeId,
    to: NodeId,
    cost: u32,
}

/// One cell of the abstraction.
#[derive(Debug, Clone)]
struct HpaCell {
    chunk: Chunk,
    /// The lowest and highest feet y any node of the cell has had: where to look for its
    /// border nodes again after an update.
    y_low: i32,
    y_high: i32,
    /// The transitions out of the cell, one or two per entrance.
    exits: Vec<Transition>,
    /// The ends of transitions in the cell, in canonical order (local x, local z, feet y).
    portals: Vec<NodeId>,
    /// Their feet positions, read by the abstract search's heuristic (here rather than from
    /// the graph, whose nodes lie all over memory).
    feet: Vec<IVec3>,
    /// `table[i * n + j]`: the cheapest route inside the cell from portal `i` to `j`.
    table: Table,
    /// The first overlay slot the cell owns and how many it owns.
    base: u32,
    capacity: u32,
}

/// The HPA*-style abstraction of one [`NavGraph`] for one [`MoveCosts`]: chunk-column
/// cells, one portal pair per border entrance (two for long entrances), exact in-cell costs
/// between a cell's portals. Routes through it are legal walk routes, near-optimal but not
/// optimal: see the [module docs](super#the-inexact-abstraction-hpa) for the bound as
/// measured and as tested.
///
/// Its `Debug` output is a summary.
#[derive(Clone)]
pub struct Abstraction {
    costs: MoveCosts,
    version: Option<u64>,
    cells: Vec<HpaCell>,
    by_chunk: AHashMap<Chunk, u32>,
    /// Each portal's cell and index in the cell's portals.
    portal_of: AHashMap<NodeId, (u32, u32)>,
    /// The cell owning each overlay slot.
    slot_cell: Vec<u32>,
    used_slots: usize,
    /// `landmarks[slot * LANDMARKS + l]`: the abstract route cost from landmark `l` to the
    /// slot's portal ([`NO_ROUTE`] for none); empty while stale (see
    /// [`Abstraction::refresh_landmarks`]).
    landmarks: Vec<u32>,
}

/// The landmarks of the abstract search's ALT heuristic (Goldberg and Harrelson 2005): the
/// portals nearest to the corners and the middles of the sides of the area the portals
/// span. Each costs 4 bytes per portal slot. Farthest selection (each next landmark the
/// portal farthest from those chosen) expanded 13% more on 8 pairs at 2048.
const LANDMARKS: usize = 8;

/// A landmark distance for a portal the landmark does not reach.
const NO_ROUTE: u32 = u32::MAX;

impl std::fmt::Debug for Abstraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Abstraction")
            .field("cells", &self.cells.len())
            .field("portals", &self.portal_of.len())
            .field("memory_bytes", &self.memory_bytes())
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// The position of a crossing along its border: the coordinate that runs along it (z for a
/// border between cells side by side in x, x for one in z; 0 across a corner, where the
/// border is one column).
fn along_border(from: Chunk, to: Chunk, feet: IVec3) -> i32 {
    match (from[0] == to[0], from[1] == to[1]) {
        (false, true) => feet.z,
        (true, false) => feet.x,
        _ => 0,
    }
}

/// Whether the walk graph has a move from `a` to `b` and one back: two crossings whose ends
/// are joined so on both sides belong to one entrance (one way only, as down a drop, would
/// let a portal at one end stand for crossings it cannot reach).
fn joined(graph: &NavGraph, costs: &MoveCosts, a: NodeId, b: NodeId) -> bool {
    let (mut there, mut back) = (false, false);
    graph.for_each_move(a, costs, |step| there |= step.node == b);
    if there {
        graph.for_each_move(b, costs, |step| back |= step.node == a);
    }
    there && back
}

/// The transitions out of the cell `chunk` whose border nodes are `border`: its moves to
/// other cells grouped into entrances (per neighbour cell, runs of crossings whose sources
/// are joined both ways by a move along the border, and whose targets are too), each
/// entrance represented by one crossing per [`PORTAL_SPACING`] crossings.
fn exits_of(
    graph: &NavGraph,
    costs: &MoveCosts,
    chunk: Chunk,
    border: &[NodeId],
) -> Vec<Transition> {
    // Per border node and neighbour cell, its cheapest crossing (ties: the lowest target
    // position), so diagonal crossings count only where no straight one is cheaper.
    let mut crossings: Vec<(Chunk, i32, i32, Transition, IVec3)> = Vec::new();
    for &from in border {
        let feet = graph.feet(from);
        let first = crossings.len();
        graph.for_each_move(from, costs, |step| {
            let to_chunk = chunk_of(step.feet);
            if to_chunk == chunk {
                return;
            }
            let transition = Transition {
                from,
                to: step.node,
                cost: step.cost,
            };
            let key = (step.cost, step.feet.to_array());
            if let Some(known) = crossings[first..]
                .iter_mut()
                .find(|known| known.0 == to_chunk)
            {
                if key < (known.3.cost, known.4.to_array()) {
                    known.3 = transition;
                    known.4 = step.feet;
                }
                return;
            }
            let t = along_border(chunk, to_chunk, feet);
            crossings.push((to_chunk, t, feet.y, transition, step.feet));
        });
    }
    crossings.sort_unstable_by_key(|&(to_chunk, t, y, _, _)| (to_chunk, t, y));
    // Runs grow in order along the border; a crossing joins the open run of its neighbour
    // cell whose last crossing is one step before it and joined on both sides.
    let mut runs: Vec<Vec<Transition>> = Vec::new();
    let mut open: Vec<(Chunk, i32, usize)> = Vec::new();
    for &(to_chunk, t, _, transition, _) in &crossings {
        let joins = open.iter().position(|&(run_chunk, last_t, run)| {
            let last = *runs[run].last().unwrap_or(&transition);
            run_chunk == to_chunk
                && last_t + 1 == t
                && joined(graph, costs, last.from, transition.from)
                && joined(graph, costs, last.to, transition.to)
        });
        match joins {
            Some(index) => {
                let run = open[index].2;
                runs[run].push(transition);
                open[index].1 = t;
            }
            None => {
                open.push((to_chunk, t, runs.len()));
                runs.push(vec![transition]);
            }
        }
        // Runs whose last crossing lies two or more steps back can grow no more.
        open.retain(|&(run_chunk, last_t, _)| run_chunk == to_chunk && last_t + 1 >= t);
    }
    let mut exits = Vec::new();
    for run in runs {
        // `count` portal pairs at the middles of `count` equal parts of the entrance.
        let count = run.len().div_ceil(PORTAL_SPACING);
        exits.extend((0..count).map(|part| run[(2 * part + 1) * run.len() / (2 * count)]));
    }
    exits.sort_unstable_by_key(|exit| (exit.from, exit.to));
    exits
}

impl Abstraction {
    /// Builds the abstraction of `graph` with moves priced at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for costs out of range; [`Error::GraphBroken`] /
    /// [`Error::StaleGraph`] as [`NavGraph::check_current`]; [`Error::GraphTooLarge`] when a
    /// route inside one cell costs more than 32 bits hold.
    pub fn build(graph: &NavGraph, costs: &MoveCosts) -> Result<Self> {
        costs.validate()?;
        graph.check_current()?;
        let mut abstraction = Self {
            costs: *costs,
            version: graph.world_version(),
            cells: Vec::new(),
            by_chunk: AHashMap::new(),
            portal_of: AHashMap::new(),
            slot_cell: Vec::new(),
            used_slots: 0,
            landmarks: Vec::new(),
        };
        let mut border: Vec<Vec<NodeId>> = Vec::new();
        for id in graph.nodes() {
            let feet = graph.feet(id);
            let cell = abstraction.cell_for(feet);
            if border.len() <= cell {
                border.resize_with(cell + 1, Vec::new);
            }
            if on_border(feet) {
                border[cell].push(id);
            }
        }
        for (cell, nodes) in border.iter_mut().enumerate() {
            sort_portals(graph, nodes);
            let chunk = abstraction.cells[cell].chunk;
            abstraction.cells[cell].exits = exits_of(graph, costs, chunk, nodes);
        }
        let mut scratch = DeriveScratch::default();
        for cell in 0..abstraction.cells.len() {
            let portals = abstraction.portals_of(graph, cell);
            abstraction.rederive(graph, cell, portals, &mut scratch)?;
        }
        abstraction.refresh_landmarks();
        Ok(abstraction)
    }

    /// The costs the abstraction prices moves at.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.costs
    }

    /// The index of the cell of `feet`, made (empty) if there is none yet, its height range
    /// widened to `feet`.
    fn cell_for(&mut self, feet: IVec3) -> usize {
        let chunk = chunk_of(feet);
        let cells = &mut self.cells;
        let index = *self.by_chunk.entry(chunk).or_insert_with(|| {
            cells.push(HpaCell {
                chunk,
                y_low: feet.y,
                y_high: feet.y,
                exits: Vec::new(),
                portals: Vec::new(),
                feet: Vec::new(),
                table: Table::Narrow(Vec::new()),
                base: 0,
                capacity: 0,
            });
            (cells.len() - 1) as u32
        }) as usize;
        let cell = &mut self.cells[index];
        cell.y_low = cell.y_low.min(feet.y);
        cell.y_high = cell.y_high.max(feet.y);
        index
    }

    /// The portals of cell `index` as its own and its neighbours' exits make them, in
    /// canonical order.
    fn portals_of(&self, graph: &NavGraph, index: usize) -> Vec<NodeId> {
        let cell = &self.cells[index];
        let mut portals: Vec<NodeId> = cell.exits.iter().map(|exit| exit.from).collect();
        for dx in -1..=1 {
            for dz in -1..=1 {
                let chunk = [cell.chunk[0] + dx, cell.chunk[1] + dz];
                if chunk == cell.chunk {
                    continue;
                }
                if let Some(&other) = self.by_chunk.get(&chunk) {
                    portals.extend(
                        self.cells[other as usize]
                            .exits
                            .iter()
                            .filter(|exit| chunk_of(graph.feet(exit.to)) == cell.chunk)
                            .map(|exit| exit.to),
                    );
                }
            }
        }
        portals.sort_unstable();
        portals.dedup();
        sort_portals(graph, &mut portals);
        portals
    }

    /// Derives cell `index`'s table for `portals` and gives them overlay slots.
    fn rederive(
        &mut self,
        graph: &NavGraph,
        index: usize,
        portals: Vec<NodeId>,
        scratch: &mut DeriveScratch,
    ) -> Result<()> {
        let chunk = self.cells[index].chunk;
        let derived = derive(graph, &self.costs, chunk, portals, scratch)?;
        let count = derived.portals.len() as u32;
        let cell = &mut self.cells[index];
        for portal in &cell.portals {
            self.portal_of.remove(portal);
        }
        self.used_slots = self.used_slots + count as usize - cell.portals.len();
        if count > cell.capacity {
            // Room to grow by a quarter before the next move.
            let capacity = count + count / 4;
            cell.base = self.slot_cell.len() as u32;
            cell.capacity = capacity;
            self.slot_cell
                .extend(std::iter::repeat_n(index as u32, capacity as usize));
        }
        for (local, &portal) in derived.portals.iter().enumerate() {
            self.portal_of.insert(portal, (index as u32, local as u32));
        }
        cell.feet = derived.portals.iter().map(|&id| graph.feet(id)).collect();
        cell.portals = derived.portals;
        cell.table = Table::new(derived.table);
        Ok(())
    }

    /// Follows the walk graph after [`NavGraph::update`] or [`NavGraph::apply_changes`]
    /// returned `changes` (`graph` being the updated graph): finds again the exits of the
    /// cells of the nodes whose moves out changed (and of removed portals), then derives the
    /// table of those cells and of every neighbour whose portals changed. Pass every
    /// update's changes, in order.
    ///
    /// # Errors
    /// As [`NavGraph::check_current`]; [`Error::GraphTooLarge`] as [`Abstraction::build`].
    pub fn update(&mut self, graph: &NavGraph, changes: &GraphUpdate) -> Result<()> {
        graph.check_current()?;
        let mut dirty: AHashSet<Chunk> = AHashSet::new();
        for &id in changes.added.iter().chain(&changes.changed) {
            if !graph.is_live(id) {
                continue;
            }
            // Only the cells of nodes whose moves out changed: a cell's exits and table read
            // its own nodes' moves out, and the portals a neighbour's exits give it are found
            // again below for every neighbour.
            let feet = graph.feet(id);
            self.cell_for(feet);
            dirty.insert(chunk_of(feet));
        }
        for id in &changes.removed {
            if let Some(&(cell, _)) = self.portal_of.get(id) {
                dirty.insert(self.cells[cell as usize].chunk);
            }
        }
        let mut dirty: Vec<usize> = dirty
            .into_iter()
            .filter_map(|chunk| self.by_chunk.get(&chunk).map(|&index| index as usize))
            .collect();
        dirty.sort_unstable();
        let mut affected = dirty.clone();
        for &index in &dirty {
            let border = self.border_nodes(graph, index);
            let chunk = self.cells[index].chunk;
            self.cells[index].exits = exits_of(graph, &self.costs, chunk, &border);
            for dx in -1..=1 {
                for dz in -1..=1 {
                    if let Some(&other) = self.by_chunk.get(&[chunk[0] + dx, chunk[1] + dz]) {
                        affected.push(other as usize);
                    }
                }
            }
        }
        affected.sort_unstable();
        affected.dedup();
        let mut scratch = DeriveScratch::default();
        for index in affected {
            let portals = self.portals_of(graph, index);
            // A cell whose portals stayed and whose own nodes did not change keeps its table.
            if dirty.binary_search(&index).is_ok() || portals != self.cells[index].portals {
                self.rederive(graph, index, portals, &mut scratch)?;
            }
        }
        self.compact_slots();
        if !dirty.is_empty() {
            // Costs changed somewhere: a landmark distance that fell could overestimate.
            self.landmarks = Vec::new();
        }
        self.version = graph.world_version();
        Ok(())
    }

    /// The nodes of cell `index`'s border columns at every feet height the cell has had, in
    /// canonical order.
    fn border_nodes(&self, graph: &NavGraph, index: usize) -> Vec<NodeId> {
        let cell = &self.cells[index];
        let origin = IVec3::new(cell.chunk[0] * CELL_SIDE, 0, cell.chunk[1] * CELL_SIDE);
        let mut nodes = Vec::new();
        for x in 0..CELL_SIDE {
            for z in 0..CELL_SIDE {
                if !on_border(IVec3::new(x, 0, z)) {
                    continue;
                }
                for y in cell.y_low..=cell.y_high {
                    if let Some(id) = graph.node(origin + IVec3::new(x, y, z)) {
                        nodes.push(id);
                    }
                }
            }
        }
        nodes
    }

    /// Lays the overlay slots out again when cells that grew left more than half unused.
    fn compact_slots(&mut self) {
        if self.used_slots * 2 >= self.slot_cell.len() {
            return;
        }
        self.slot_cell.clear();
        for (index, cell) in self.cells.iter_mut().enumerate() {
            let count = cell.portals.len() as u32;
            cell.base = self.slot_cell.len() as u32;
            cell.capacity = count;
            self.slot_cell
                .extend(std::iter::repeat_n(index as u32, count as usize));
        }
        self.slot_cell.shrink_to_fit();
    }

    /// Computes the landmark distances again (one Dijkstra over the portals per landmark)
    /// after updates left them stale: until then the abstract search estimates with the
    /// octile heuristic alone, exploring more (see the
    /// [module docs](super#the-inexact-abstraction-hpa)). [`Abstraction::build`] computes
    /// them; [`Abstraction::update`] drops them when the graph changed.
    pub fn refresh_landmarks(&mut self) {
        if !self.landmarks.is_empty() {
            return;
        }
        let slots = self.slot_cell.len();
        let mut portals: Vec<(IVec3, u32)> = Vec::new();
        for cell in &self.cells {
            for (local, &feet) in cell.feet.iter().enumerate() {
                portals.push((feet, cell.base + local as u32));
            }
        }
        let Some(low) = portals.iter().map(|p| p.0).reduce(IVec3::min) else {
            return;
        };
        let high = portals.iter().map(|p| p.0).fold(low, IVec3::max);
        let middle = (low + high) / 2;
        let mut landmarks = vec![NO_ROUTE; slots * LANDMARKS];
        let mut dist: Vec<u64> = Vec::new();
        let mut heap = BinaryHeap::new();
        let aims = [
            (low.x, low.z),
            (high.x, high.z),
            (low.x, high.z),
            (high.x, low.z),
            (middle.x, low.z),
            (middle.x, high.z),
            (low.x, middle.z),
            (high.x, middle.z),
        ];
        for (l, &(x, z)) in aims.iter().enumerate().take(LANDMARKS) {
            let aim = IVec3::new(x, 0, z);
            let Some(&(_, source)) = portals.iter().min_by_key(|(feet, _)| {
                let d = (*feet - aim).abs();
                (i64::from(d.x) + i64::from(d.z), feet.to_array())
            }) else {
                continue;
            };
            dist.clear();
            dist.resize(slots, u64::MAX);
            dist[source as usize] = 0;
            heap.push(Reverse((0u64, source)));
            while let Some(Reverse((g, slot))) = heap.pop() {
                if g > dist[slot as usize] {
                    continue;
                }
                landmarks[slot as usize * LANDMARKS + l] = u32::try_from(g).unwrap_or(NO_ROUTE);
                self.for_each_edge(slot, |next, cost| {
                    let reached = g + u64::from(cost);
                    if reached < dist[next as usize] {
                        dist[next as usize] = reached;
                        heap.push(Reverse((reached, next)));
                    }
                });
            }
        }
        self.landmarks = landmarks;
    }

    /// Visits the abstract edges out of the portal in `slot`: its table row and its exits.
    fn for_each_edge(&self, slot: u32, mut visit: impl FnMut(u32, u32)) {
        let cell = &self.cells[self.slot_cell[slot as usize] as usize];
        let local = (slot - cell.base) as usize;
        let n = cell.portals.len();
        if local >= n {
            return;
        }
        for other in 0..n {
            if other != local
                && let Some(cost) = cell.table.get(local * n + other)
            {
                visit(cell.base + other as u32, cost);
            }
        }
        let portal = cell.portals[local];
        for exit in cell.exits.iter().filter(|exit| exit.from == portal) {
            if let Some(&(to_cell, to_local)) = self.portal_of.get(&exit.to) {
                visit(self.cells[to_cell as usize].base + to_local, exit.cost);
            }
        }
    }

    /// Whether the landmark distances describe the abstraction (see
    /// [`Abstraction::refresh_landmarks`]).
    #[must_use]
    pub fn landmarks_current(&self) -> bool {
        !self.landmarks.is_empty()
    }

    /// [`Error::StaleGraph`] when `graph` describes another version of its world than the
    /// abstraction was built or last updated for.
    fn check_graph(&self, graph: &NavGraph) -> Result<()> {
        graph.check_current()?;
        match (self.version, graph.world_version()) {
            (Some(built), Some(now)) if built != now => Err(Error::StaleGraph { built, now }),
            _ => Ok(()),
        }
    }

    /// The number of portals over all cells.
    #[must_use]
    pub fn portal_count(&self) -> usize {
        self.portal_of.len()
    }

    /// The number of cells (chunk columns that have had a node).
    #[must_use]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Every edge of the abstraction by feet positions, sorted: `(from, to, cost)` for each
    /// pair of portals of one cell with a route inside it and for each transition between
    /// cells. For inspection and tests: two abstractions of the same graph list the same
    /// edges.
    #[must_use]
    pub fn edges(&self, graph: &NavGraph) -> Vec<(IVec3, IVec3, u32)> {
        let mut edges = Vec::new();
        for cell in &self.cells {
            let n = cell.portals.len();
            for i in 0..n {
                for j in 0..n {
                    if let Some(cost) = cell.table.get(i * n + j) {
                        let (from, to) = (cell.portals[i], cell.portals[j]);
                        edges.push((graph.feet(from), graph.feet(to), cost));
                    }
                }
            }
            for exit in &cell.exits {
                edges.push((graph.feet(exit.from), graph.feet(exit.to), exit.cost));
            }
        }
        edges.sort_unstable_by_key(|&(from, to, cost)| (from.to_array(), to.to_array(), cost));
        edges
    }

    /// The memory the abstraction holds, in bytes (its arrays' and maps' capacities; a hash
    /// map entry counted at its key and value plus one control byte).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let cells: usize = self
            .cells
            .iter()
            .map(|cell| {
                std::mem::size_of::<HpaCell>()
                    + cell.portals.capacity() * 4
                    + cell.feet.capacity() * 12
                    + cell.exits.capacity() * std::mem::size_of::<Transition>()
                    + cell.table.memory_bytes()
            })
            .sum();
        let entry = |key: usize, value: usize| key + value + 1;
        cells
            + self.cells.capacity().saturating_sub(self.cells.len())
                * std::mem::size_of::<HpaCell>()
            + self.by_chunk.capacity() * entry(8, 4)
            + self.portal_of.capacity() * entry(4, 8)
            + self.slot_cell.capacity() * 4
            + self.landmarks.capacity() * 4
    }
}

/// The parent of the portals reached from the start's cell search.
const FROM_START: u32 = u32::MAX - 1;
/// The goal's entry in the open set.
const GOAL: u32 = u32::MAX;
/// How often the abstract search looks at the clock: every this many expansions.
const CLOCK_INTERVAL: u64 = 256;

/// The abstract search's knowledge of one portal slot.
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    g: u64,
    parent: u32,
    stamp: u32,
}

/// Reusable state for queries over an [`Abstraction`]: the abstract search's records (dense,
/// stamped per query), the searches inside cells and windows, and a [`GraphSearch`] for the
/// queries it answers directly. Keep one per thread and reuse it.
#[derive(Clone, Default)]
pub struct AbstractSearch {
    records: Vec<Record>,
    stamp: u32,
    open: BinaryHeap<Reverse<(u64, u64, u32)>>,
    goal: Option<(u64, u32)>,
    first: CellSearch,
    last: CellSearch,
    window: CellSearch,
    to_goal: Vec<Option<u64>>,
    plain: Option<GraphSearch>,
    direct_cells: i32,
    leg: Vec<IVec3>,
}

impl std::fmt::Debug for AbstractSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AbstractSearch")
            .field("records", &self.records.len())
            .field("direct_cells", &self.direct_cells)
            .finish_non_exhaustive()
    }
}

/// The cells (chunk distance, the larger of the two axes) within which a query goes straight
/// to A* over the graph by default: the start's cell and its 8 neighbours, where the
/// abstraction's fixed portals cost the most and A* expands little.
pub const DIRECT_CELLS: i32 = 1;

impl AbstractSearch {
    /// A search with empty buffers that answers queries within [`DIRECT_CELLS`] by A* over
    /// the graph.
    #[must_use]
    pub fn new() -> Self {
        Self {
            direct_cells: DIRECT_CELLS,
            ..Self::default()
        }
    }

    /// Sets the chunk distance (the larger of the two axes) at or below which a query is
    /// answered by A* over the graph: 0 sends every query that leaves its start's cell
    /// through the abstraction (what the tests use to exercise it on small worlds); negative
    /// values count as 0. Defaults to [`DIRECT_CELLS`].
    #[must_use]
    pub fn with_direct_cells(mut self, cells: i32) -> Self {
        self.direct_cells = cells.max(0);
        self
    }

    /// Finds a route over `graph` from the feet position `start` to `goal` through `hpa`
    /// (built from `graph` and kept current with its updates). Queries within the direct
    /// distance ([`AbstractSearch::with_direct_cells`]) are A* over the graph; others search
    /// the abstraction, then refine and smooth its route with A* windows two cells wide
    /// (see the [module docs](super#the-inexact-abstraction-hpa)): a legal route that costs
    /// what it reports, near-optimal. When the abstraction finds no route, A* over the graph
    /// decides (with the budget left), so "unreachable" is exact.
    ///
    /// # Errors
    /// As [`GraphSearch::find_path`]; [`Error::StaleGraph`] when `hpa` describes another
    /// version of the graph's world.
    pub fn find_path(
        &mut self,
        hpa: &Abstraction,
        graph: &NavGraph,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        hpa.check_graph(graph)?;
        options.check_budgets(true)?;
        let (start_id, goal_id) = end_nodes(graph, start, goal)?;
        let (start_chunk, goal_chunk) = (chunk_of(start), chunk_of(goal));
        let apart = (start_chunk[0] - goal_chunk[0])
            .abs()
            .max((start_chunk[1] - goal_chunk[1]).abs());
        if apart <= self.direct_cells {
            return self.plain(hpa)?.find_path(graph, start, goal, options);
        }
        let (Some(&start_cell), Some(&goal_cell)) = (
            hpa.by_chunk.get(&start_chunk),
            hpa.by_chunk.get(&goal_chunk),
        ) else {
            return Err(Error::GraphBroken(format!(
                "the abstraction has no cell for the chunk column {start_chunk:?} or \
                 {goal_chunk:?}, where the graph has nodes: update it with every change of the \
                 graph"
            )));
        };
        let costs = hpa.costs;
        let estimator = options.heuristic.estimator(graph.agent(), &costs);
        self.first.run(
            graph,
            &costs,
            &[start_chunk],
            start_id,
            Direction::Forward,
            None,
        );
        self.last.run(
            graph,
            &costs,
            &[goal_chunk],
            goal_id,
            Direction::Backward,
            None,
        );
        let mut expanded = self.first.expanded + self.last.expanded;
        let goal_cell_ref = &hpa.cells[goal_cell as usize];
        self.to_goal.clear();
        self.to_goal.extend(
            goal_cell_ref
                .portals
                .iter()
                .map(|&portal| self.last.cost(portal)),
        );
        // Per landmark, its abstract cost to the goal (through the goal cell's portals), for
        // the bound `d(L, goal) - d(L, v)` on the cost from `v`.
        let mut to_goal_from = [None; LANDMARKS];
        if hpa.landmarks_current() {
            for (local, rest) in self.to_goal.iter().enumerate() {
                let Some(rest) = rest else { continue };
                let slot = (goal_cell_ref.base as usize + local) * LANDMARKS;
                for (l, known) in to_goal_from.iter_mut().enumerate() {
                    let from_landmark = hpa.landmarks[slot + l];
                    if from_landmark != NO_ROUTE {
                        let through = u64::from(from_landmark) + rest;
                        *known = Some(known.map_or(through, |best: u64| best.min(through)));
                    }
                }
            }
        }
        let estimate = |slot: u32, feet: IVec3| {
            let octile = estimator.between(feet, goal);
            let Some(distances) = hpa.landmarks.get(slot as usize * LANDMARKS..) else {
                return octile;
            };
            let mut alt = 0;
            for (&from_landmark, to_goal) in distances.iter().zip(&to_goal_from) {
                if let Some(to_goal) = to_goal
                    && from_landmark != NO_ROUTE
                {
                    alt = alt.max(to_goal.saturating_sub(u64::from(from_landmark)));
                }
            }
            // The landmark bound unweighted: weighting it too sent searches on long detours
            // (`long`, weight 1.05: 76 k expansions against 24 k unweighted).
            octile.max(alt)
        };
        self.reset(hpa.slot_cell.len());
        let cell = &hpa.cells[start_cell as usize];
        for (local, &portal) in cell.portals.iter().enumerate() {
            if let Some(g) = self.first.cost(portal) {
                let h = estimate(cell.base + local as u32, cell.feet[local]);
                self.relax(cell.base + local as u32, g, h, FROM_START);
            }
        }
        let max_nodes = options.max_nodes.unwrap_or(u64::MAX);
        let deadline = options.deadline(started);
        // The expanded portal closest to the goal by the heuristic, for a partial route; the
        // start itself until one is closer.
        let mut closest = (estimator.between(start, goal), FROM_START);
        let mut generated = 0;
        let mut status = SearchStatus::Unreachable;
        while let Some(Reverse((_, deep, slot))) = self.open.pop() {
            let g = u64::MAX - deep;
            if slot == GOAL {
                if self.goal.is_some_and(|(best, _)| best == g) {
                    status = SearchStatus::Found;
                    break;
                }
                continue;
            }
            let record = self.records[slot as usize];
            if record.g != g {
                continue;
            }
            if expanded >= max_nodes
                || deadline.is_some_and(|deadline| {
                    expanded.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= deadline
                })
            {
                status = SearchStatus::Partial;
                break;
            }
            expanded += 1;
            let index = hpa.slot_cell[slot as usize];
            let cell = &hpa.cells[index as usize];
            let local = (slot - cell.base) as usize;
            let portal = cell.portals[local];
            let h = estimator.between(cell.feet[local], goal);
            if h < closest.0 {
                closest = (h, slot);
            }
            if index == goal_cell
                && let Some(rest) = self.to_goal[local]
                && self.goal.is_none_or(|(known, _)| g + rest < known)
            {
                self.goal = Some((g + rest, slot));
                self.open
                    .push(Reverse((g + rest, u64::MAX - (g + rest), GOAL)));
            }
            // A portal reached through its cell's table has its table row covered already
            // (in-cell costs are shortest routes, so a second table step never improves).
            let through_table =
                record.parent != FROM_START && hpa.slot_cell[record.parent as usize] == index;
            if !through_table {
                let n = cell.portals.len();
                for (other, &target) in cell.feet.iter().enumerate() {
                    if other == local {
                        continue;
                    }
                    if let Some(cost) = cell.table.get(local * n + other) {
                        let next = g + u64::from(cost);
                        let target_slot = cell.base + other as u32;
                        if self.improves(target_slot, next) {
                            let h = estimate(target_slot, target);
                            self.relax(target_slot, next, h, slot);
                            generated += 1;
                        }
                    }
                }
            }
            for exit in cell.exits.iter().filter(|exit| exit.from == portal) {
                let Some(&(to_cell, to_local)) = hpa.portal_of.get(&exit.to) else {
                    continue;
                };
                let target_slot = hpa.cells[to_cell as usize].base + to_local;
                let next = g + u64::from(exit.cost);
                if self.improves(target_slot, next) {
                    let h = estimate(
                        target_slot,
                        hpa.cells[to_cell as usize].feet[to_local as usize],
                    );
                    self.relax(target_slot, next, h, slot);
                    generated += 1;
                }
            }
        }
        let end = match status {
            SearchStatus::Found => self.goal.map_or(FROM_START, |(_, slot)| slot),
            SearchStatus::Partial => closest.1,
            SearchStatus::Unreachable => {
                // The abstraction keeps only some crossings: A* over the graph decides, with
                // what is left of the node budget.
                let mut rest = *options;
                rest.max_nodes = options
                    .max_nodes
                    .map(|budget| budget.saturating_sub(expanded).max(1));
                rest.max_time = options.max_time.map(|limit| {
                    limit
                        .saturating_sub(started.elapsed())
                        .max(Duration::from_nanos(1))
                });
                let mut result = self.plain(hpa)?.find_path(graph, start, goal, &rest)?;
                result.stats.expanded += expanded;
                result.stats.elapsed = started.elapsed();
                return Ok(result);
            }
        };
        if end == FROM_START {
            // Partial with no expanded portal closer to the goal than the start: the start alone.
            return Ok(SearchResult {
                status,
                path: vec![start],
                cost: Some(0),
                stats: SearchStats {
                    expanded,
                    generated,
                    elapsed: started.elapsed(),
                },
            });
        }
        let target = (status == SearchStatus::Found).then_some(goal_id);
        let (path, cost, window_expanded) = self.refine(hpa, graph, start_id, end, target)?;
        Ok(SearchResult {
            status,
            path,
            cost: Some(cost),
            stats: SearchStats {
                expanded: expanded + window_expanded,
                generated,
                elapsed: started.elapsed(),
            },
        })
    }

    /// The graph search for direct and fallback queries, made for the abstraction's costs.
    fn plain(&mut self, hpa: &Abstraction) -> Result<&mut GraphSearch> {
        if self
            .plain
            .as_ref()
            .is_none_or(|plain| *plain.costs() != hpa.costs)
        {
            self.plain = Some(GraphSearch::new(hpa.costs)?);
        }
        Ok(self.plain.as_mut().expect("made just above"))
    }

    fn reset(&mut self, slots: usize) {
        self.open.clear();
        self.goal = None;
        if self.records.len() < slots {
            self.records.resize(slots, Record::default());
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.records.fill(Record::default());
            self.stamp = 1;
        }
    }

    #[inline]
    fn improves(&self, slot: u32, g: u64) -> bool {
        let record = self.records[slot as usize];
        record.stamp != self.stamp || g < record.g
    }

    #[inline]
    fn relax(&mut self, slot: u32, g: u64, h: u64, parent: u32) {
        if !self.improves(slot, g) {
            return;
        }
        self.records[slot as usize] = Record {
            g,
            parent,
            stamp: self.stamp,
        };
        self.open.push(Reverse((g + h, u64::MAX - g, slot)));
    }

    /// The walk route from `start` through the abstract route ending at slot `end` (and on to
    /// `goal` when given), smoothed: cell by cell, A* from where the route entered the
    /// current cell to where it leaves the next one (or the goal), over the moves inside
    /// those two cells, keeping its part up to its last entry into the next cell. Each
    /// window's A* may take the abstract route's own part, so the smoothed route costs at
    /// most the abstract one. Returns the route, its cost and the windows' expansions.
    fn refine(
        &mut self,
        hpa: &Abstraction,
        graph: &NavGraph,
        start: NodeId,
        end: u32,
        goal: Option<NodeId>,
    ) -> Result<(Vec<IVec3>, u64, u64)> {
        // The abstract route's portals, start to end.
        let mut portals = Vec::new();
        let mut slot = end;
        while slot != FROM_START {
            let cell = &hpa.cells[hpa.slot_cell[slot as usize] as usize];
            portals.push(cell.portals[(slot - cell.base) as usize]);
            slot = self.records[slot as usize].parent;
        }
        portals.reverse();
        portals.extend(goal);
        // Per cell the route passes through, in order: its chunk and the node where the route
        // leaves it (the goal or last portal for the last).
        let mut legs: Vec<(Chunk, NodeId)> = Vec::new();
        let mut at = chunk_of(graph.feet(start));
        let mut previous = start;
        for &portal in &portals {
            let next = chunk_of(graph.feet(portal));
            if next != at {
                legs.push((at, previous));
                at = next;
            }
            previous = portal;
        }
        legs.push((at, previous));
        let estimator = Heuristic::default().estimator(graph.agent(), &hpa.costs);
        let mut path = vec![graph.feet(start)];
        let mut cost = 0;
        let mut expanded = 0;
        let mut from = start;
        let mut region: Vec<Chunk> = Vec::with_capacity(WINDOW_CELLS);
        for i in 0..legs.len() {
            let last = (i + WINDOW_CELLS).min(legs.len()) - 1;
            region.clear();
            region.extend(legs[i..=last].iter().map(|leg| leg.0));
            self.window_leg(graph, hpa, &region, (from, legs[last].1), &estimator)?;
            expanded += self.window.expanded;
            if last + 1 == legs.len() {
                cost += self.window.cost(legs[last].1).unwrap_or(0);
                path.extend_from_slice(&self.leg);
                break;
            }
            // Keep the window's route up to the node after its last one in this cell: from
            // there it runs in the next cells of the window, so the next window (one cell on)
            // holds a route to its end.
            let here = legs[i].0;
            let keep = self
                .leg
                .iter()
                .rposition(|&feet| chunk_of(feet) == here)
                .map_or(0, |k| k + 1);
            let Some(&entry) = self.leg.get(keep) else {
                continue;
            };
            let entry_id = graph.node(entry).unwrap_or(from);
            cost += self.window.cost(entry_id).unwrap_or(0);
            path.extend_from_slice(&self.leg[..=keep]);
            from = entry_id;
        }
        Ok((path, cost, expanded))
    }

    /// A* from `from` to `to` over the moves inside `region`; the route (without `from`) in
    /// `self.leg`, its cost returned.
    fn window_leg(
        &mut self,
        graph: &NavGraph,
        hpa: &Abstraction,
        region: &[Chunk],
        (from, to): (NodeId, NodeId),
        estimator: &Estimator,
    ) -> Result<u64> {
        self.leg.clear();
        if from == to {
            self.window.expanded = 0;
            return Ok(0);
        }
        let target = (to, graph.feet(to), estimator);
        let Some(cost) = self.window.run(
            graph,
            &hpa.costs,
            region,
            from,
            Direction::Forward,
            Some(target),
        ) else {
            return Err(Error::GraphBroken(format!(
                "the abstraction has a route from {} to {} inside {region:?} that the graph does \
                 not: update it with every change of the graph",
                graph.feet(from),
                graph.feet(to)
            )));
        };
        self.window
            .append_leg(graph, to, Direction::Forward, &mut self.leg);
        Ok(cost)
    }
}
