//! The inexact abstraction (HPA* style): one or two portal pairs per border entrance
//! instead of every border node, in-cell costs between those portals only, and a query that
//! searches the few portals and then smooths the route with windows two cells wide. See
//! the [module docs](super#the-inexact-abstraction-hpa) for the design and its figures.
//!
//! This file holds the build side ([`Abstraction`]: portals, updates, landmarks);
//! `search.rs` the query side ([`AbstractSearch`], its abstract search and windows).

use ahash::{AHashMap, AHashSet};
use glam::IVec3;

use super::cell::{
    Before, CELL_SIDE, Chunk, DeriveScratch, Derived, UNREACHED, chunk_of, derive, map_cells,
    on_border, sort_portals,
};
use crate::error::{Error, Result};
use crate::graph::{GraphUpdate, NavGraph, NodeId};
use crate::moves::agent::MoveCosts;

mod alt;
mod blocks;
mod bytes;
mod edits;
mod exits;
mod landmarks;
mod search;

use alt::PackedLandmarks;
use blocks::HpaCell;
use exits::{exits_of, facing};
use landmarks::LANDMARK_WAYS;

pub use search::{AbstractSearch, DIRECT_CELLS, PROBE_BLOCKS};

/// An entrance gets one portal pair per this many crossings (rounded up), each in the middle
/// of its share: measured against Botea, Mueller and Schaeffer's rule (one pair in the
/// middle, or one at each end of entrances longer than 6), which left routes 2.2% above
/// optimal on average after smoothing (worst 4.3%), against 0.7% (worst 1.7%) for a pair
/// per 4 crossings and 0.5% (worst 0.9%) per 2, at 1.3x and 1.6x the windows' expansions
/// (`long --quick`, 20 pairs). A pair per 6 crossings cuts the memory by a quarter (67% of
/// the graph's at 2048 against 90%) and the expansions by 3%, for costs 0.8% above optimal
/// on average instead of 0.7%: too close to the 1% target.
const PORTAL_SPACING: usize = 4;

/// The cells a smoothing window spans along the abstract route, and the cells it steps on:
/// each border then lies inside some window, so every crossing point is free. With one
/// pair per 4 crossings (`long --quick --weight 1`, 20 pairs, expansions of the abstract
/// search and windows): 2 wide, 1 step: 6 300 expansions, costs 0.77% above optimal on
/// average; 3 wide, 2 steps: 6 322, 0.66%; 4 wide, 3 steps: 6 729, 0.61%; 2 wide, 2 steps
/// (every other border fixed at a portal): 4 519, 1.06%, over the 1% target. Wider windows
/// wander further under the octile estimate, so each cell costs about as much in all three.
/// Earlier, with one pair per entrance and 1 step, 3 and 4 cells cut the average excess from
/// 2.2% to 2.1% and 2.0% only, for 1.6x and 2.2x the expansions.
const WINDOW_CELLS: usize = 2;

/// See [`WINDOW_CELLS`].
const WINDOW_STRIDE: usize = 1;

/// A route whose cells (the box of chunks between its ends' chunks, and the cells its abstract
/// route passes outside that box) are at most this many is refined by one window over all of
/// them: the best route inside them, never dearer than the windows', and the optimum
/// whenever the optimum stays inside (see `search/windows.rs`).
const SHORT_CELLS: usize = 9;

/// The number of a dropped cell, while the others are numbered again.
const NO_CELL: u32 = u32::MAX;

/// The slot of an exit whose target is no portal (none is, once the update that made it ends).
const NO_SLOT: u32 = u32::MAX;

thread_local! {
    /// The derivation buffers of [`Abstraction::update`], kept between updates on a thread
    /// (a cell's nodes and moves: tens of kilobytes).
    static UPDATE_SCRATCH: std::cell::Cell<DeriveScratch> = std::cell::Cell::default();
}

/// One chosen move across a cell's border: the abstraction's edge between two cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Transition {
    from: NodeId,
    to: NodeId,
    cost: u32,
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
    /// The cell owning each overlay slot.
    slot_cell: Vec<u32>,
    used_slots: usize,
    /// The abstract route costs from every landmark to every slot's portal and back, a byte
    /// each on its cell's scale; empty while stale (see [`Abstraction::refresh_landmarks`]).
    landmarks: PackedLandmarks<LANDMARK_WAYS>,
}

impl std::fmt::Debug for Abstraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Abstraction")
            .field("cells", &self.cells.len())
            .field("portals", &self.used_slots)
            .field("memory_bytes", &self.memory_bytes())
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl Abstraction {
    /// Builds the abstraction of `graph` with moves priced at `costs`.
    ///
    /// With the `rayon` feature (on by default) the cells' exits and tables and the landmark
    /// searches run on rayon's current thread pool (run it inside
    /// `rayon::ThreadPool::install` to choose the threads); the abstraction is the same on
    /// any number of threads, and without the feature.
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
            slot_cell: Vec::new(),
            used_slots: 0,
            landmarks: PackedLandmarks::default(),
        };
        let mut border: Vec<Vec<NodeId>> = Vec::new();
        // Ids run page by page, a chunk column's home nodes in one: most nodes lie in the cell
        // of the node before, found again without hashing its chunk.
        let mut last: Option<(Chunk, usize)> = None;
        for id in graph.nodes() {
            let feet = graph.feet(id);
            let chunk = chunk_of(feet);
            let cell = match last {
                Some((known, cell)) if known == chunk => {
                    let cell_ref = &mut abstraction.cells[cell];
                    cell_ref.y_low = cell_ref.y_low.min(feet.y);
                    cell_ref.y_high = cell_ref.y_high.max(feet.y);
                    cell
                }
                _ => abstraction.cell_for(feet),
            };
            last = Some((chunk, cell));
            abstraction.cells[cell].nodes += 1;
            if border.len() <= cell {
                border.resize_with(cell + 1, Vec::new);
            }
            if on_border(feet) {
                border[cell].push(id);
            }
        }
        // Each cell's exits and table read the graph and the exits around it only: found for
        // many cells at once (see `map_cells`), kept in cell order. The border nodes need no
        // order: `exits_of` sorts what it finds.
        let count = abstraction.cells.len();
        let this = &abstraction;
        let exits = map_cells(0..count, |_, cell| {
            exits_of(graph, costs, this.cells[cell].chunk, &border[cell])
        });
        for (cell, exits) in abstraction.cells.iter_mut().zip(exits) {
            cell.exits = exits.into_boxed_slice();
        }
        // In batches: a cell's full table lives from its derivation until `set_derived` keeps
        // it by block, so only a batch's are held at once.
        let per_batch = 1024;
        for first in (0..count).step_by(per_batch) {
            let batch = first..(first + per_batch).min(count);
            let this = &abstraction;
            let derived = map_cells(batch.clone(), |scratch, cell| {
                let portals = this.portals_of(graph, cell);
                derive(graph, costs, this.cells[cell].chunk, portals, None, scratch)
            });
            for (cell, derived) in batch.zip(derived) {
                abstraction.set_derived(graph, cell, &derived?);
            }
        }
        for cell in 0..abstraction.cells.len() {
            abstraction.resolve_exits(graph, cell);
        }
        abstraction.slot_cell.shrink_to_fit();
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
            cells.push(HpaCell::empty(chunk, feet.y));
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

    /// Derives cell `index`'s table for `portals` again after the update whose `changed`
    /// nodes are given (see [`Before`]), and gives them overlay slots. False when the cell
    /// comes out as it was (the same portals at the same feet, every cost as before): it is
    /// then left untouched. Else `derived_before`, given while the landmarks are kept, gets
    /// the cell as it was when its routes may be cheaper or its portals other or in another
    /// order ([`edits::no_cheaper_inside`]).
    fn rederive(
        &mut self,
        graph: &NavGraph,
        index: usize,
        portals: Vec<NodeId>,
        changed: &[NodeId],
        scratch: &mut DeriveScratch,
        derived_before: Option<&mut Vec<(usize, HpaCell)>>,
    ) -> Result<bool> {
        let cell = &self.cells[index];
        // The table before in full, read row by row (a lookup per entry found its group
        // again), for the rows that stay and to compare with.
        let n = cell.portals.len();
        let mut was = std::mem::take(&mut scratch.before);
        was.clear();
        was.resize(n * n, UNREACHED);
        for from in 0..n {
            was[from * n + from] = 0;
            cell.for_each_in_row(from, |to, cost| was[from * n + to] = cost);
        }
        let cost = |from, to| Some(was[from * n + to]).filter(|&cost| cost != UNREACHED);
        let before = Before::new(&cell.portals, &cost, changed);
        let derived = derive(
            graph,
            &self.costs,
            cell.chunk,
            portals,
            Some(before),
            scratch,
        );
        scratch.before = was;
        let derived = derived?;
        let same_feet = || {
            derived.portals.iter().all(|&id| {
                let local = cell.portals.iter().position(|&old| old == id);
                local.is_some_and(|local| cell.feet(local) == graph.feet(id))
            })
        };
        let difference = derived.against_before.filter(|_| same_feet());
        if difference.is_some_and(|difference| !difference.changed) {
            return Ok(false);
        }
        // Routes no cheaper and none lost keep the groups, so the portals' order: the landmarks
        // need not look at the cell again.
        let unordered =
            !difference.is_some_and(|difference| !difference.cheaper && !difference.lost);
        let old = derived_before
            .filter(|_| unordered)
            .map(|list| (list, cell.clone()));
        self.set_derived(graph, index, &derived);
        if let Some((list, old)) = old
            && !edits::no_cheaper_inside(&old, &self.cells[index])
        {
            list.push((index, old));
        }
        Ok(true)
    }

    /// Gives cell `index` the portals and table `derived`, and overlay slots for them.
    fn set_derived(&mut self, graph: &NavGraph, index: usize, derived: &Derived) {
        let count = derived.portals.len() as u32;
        let cell = &mut self.cells[index];
        self.used_slots = self.used_slots + count as usize - cell.portals.len();
        if count > cell.capacity {
            // Room to grow by a quarter before the next move, but none at the first derivation
            // (a build): most cells never change, and the landmark distances and the search
            // records are per slot.
            let capacity = if cell.capacity == 0 {
                count
            } else {
                count + count / 4
            };
            cell.base = self.slot_cell.len() as u32;
            cell.capacity = capacity;
            self.slot_cell
                .extend(std::iter::repeat_n(index as u32, capacity as usize));
        }
        cell.set_table(&derived.portals, &derived.table, |id| graph.feet(id));
    }

    /// The cells of the 3 x 3 chunk columns centred on `chunk` that exist (`chunk`'s own
    /// among them): those whose exits may lead into it or out of it.
    fn cells_around(&self, chunk: Chunk) -> impl Iterator<Item = usize> + '_ {
        (-1..=1)
            .flat_map(move |dx| (-1..=1).map(move |dz| [chunk[0] + dx, chunk[1] + dz]))
            .filter_map(|near| self.by_chunk.get(&near).map(|&index| index as usize))
    }

    /// Finds the slot of each exit's target of cell `index` again.
    fn resolve_exits(&mut self, graph: &NavGraph, index: usize) {
        let targets = self.cells[index]
            .exits
            .iter()
            .map(|exit| {
                let to_cell = *self.by_chunk.get(&chunk_of(graph.feet(exit.to)))?;
                let portals = &self.cells[to_cell as usize].portals;
                let local = portals.iter().position(|&portal| portal == exit.to)?;
                Some(self.cells[to_cell as usize].base + local as u32)
            })
            .map(|target| target.unwrap_or(NO_SLOT))
            .collect();
        self.cells[index].resolve_exits(targets);
    }

    /// Follows the walk graph after [`NavGraph::update`] or [`NavGraph::apply_changes`]
    /// returned `changes` (`graph` being the updated graph): finds again the exits of the
    /// cells of the nodes whose moves out changed (and of removed portals), then derives the
    /// table of those cells and of every neighbour whose portals changed. Pass every
    /// update's changes, in order. The landmark values follow their portals, new portals get
    /// values from their edges, and they stay while they still bound every new or cheaper
    /// edge (see `edits.rs`); otherwise they are dropped until
    /// [`Abstraction::refresh_landmarks`].
    ///
    /// `graph` may trail its world (reports applied after the world changed again); queries
    /// wait until they agree.
    ///
    /// # Errors
    /// [`Error::GraphBroken`]; [`Error::GraphTooLarge`] as [`Abstraction::build`].
    pub fn update(&mut self, graph: &NavGraph, changes: &GraphUpdate) -> Result<()> {
        graph.check_intact()?;
        let mut dirty: AHashSet<Chunk> = AHashSet::new();
        // Whether the landmark values are kept (see `edits.rs`: until they fail to bound a new
        // or cheaper edge); while they are, the exits before of the cells whose exits changed,
        // and the derived cells whose portals moved or routes got cheaper, as they were.
        let mut keep = !self.landmarks.is_empty();
        let mut exits_before: Vec<(usize, Box<[Transition]>)> = Vec::new();
        let mut derived_before: Vec<(usize, HpaCell)> = Vec::new();
        // The cells with a changed node in a border column, and the cells across that border:
        // only their exits can differ (an exit is read from its border nodes' moves out, and
        // its entrance from the moves along the border on both sides), so the others' are not
        // found again.
        let mut rim: AHashSet<Chunk> = AHashSet::new();
        for (nth, &id) in changes.added.iter().chain(&changes.changed).enumerate() {
            if !graph.is_live(id) {
                continue;
            }
            // Only the cells of nodes whose moves out changed: a cell's exits and table read
            // its own nodes' moves out, and the portals a neighbour's exits give it are found
            // again below for every neighbour.
            let feet = graph.feet(id);
            let index = self.cell_for(feet);
            if nth < changes.added.len() {
                self.cells[index].nodes += 1;
            }
            dirty.insert(chunk_of(feet));
            rim.extend(facing(feet));
        }
        let mut emptied = false;
        for (id, &feet) in changes.removed.iter().zip(&changes.removed_feet) {
            let chunk = chunk_of(feet);
            if let Some(&index) = self.by_chunk.get(&chunk) {
                let cell = &mut self.cells[index as usize];
                // Saturating: changes not passed in order could remove nodes never counted;
                // the cell then goes early, and comes back with the next node added in it.
                cell.nodes = cell.nodes.saturating_sub(1);
                emptied |= cell.nodes == 0;
                if cell.portals.contains(id) {
                    dirty.insert(chunk);
                }
            }
            rim.extend(facing(feet));
        }
        let mut dirty: Vec<usize> = dirty
            .into_iter()
            .filter_map(|chunk| self.by_chunk.get(&chunk).map(|&index| index as usize))
            .collect();
        dirty.sort_unstable();
        let mut affected = dirty.clone();
        // The cells whose exits may point at the wrong portals: those whose exits changed, and
        // the neighbours of those whose portals changed (their exits' targets may have moved).
        let mut resolve = Vec::new();
        let mut rim: Vec<usize> = rim
            .into_iter()
            .filter_map(|chunk| self.by_chunk.get(&chunk).map(|&index| index as usize))
            .collect();
        rim.sort_unstable();
        for index in rim {
            let chunk = self.cells[index].chunk;
            let border = self.border_nodes(graph, index);
            let exits = exits_of(graph, &self.costs, chunk, &border);
            if *exits == *self.cells[index].exits {
                // A neighbour's portals are its own exits' sources and the targets of the
                // exits into it: unchanged, unless its own nodes changed (then it is dirty).
                // Most edits leave the exits be; checking the 8 neighbours' portals took
                // a seventh of an edit's instructions.
                continue;
            }
            let before = std::mem::replace(&mut self.cells[index].exits, exits.into_boxed_slice());
            if keep {
                exits_before.push((index, before));
            }
            resolve.push(index);
            affected.extend(self.cells_around(chunk));
        }
        affected.sort_unstable();
        affected.dedup();
        // The thread's buffers, grown by earlier updates: fresh ones grew again in every
        // update (with `edits.rs` reading old rows whole: 576.2 M to 561.1 M instructions for
        // `long --size 1024 --edits 200 --refresh-landmarks`).
        let mut scratch = UPDATE_SCRATCH.take();
        for index in affected {
            let portals = self.portals_of(graph, index);
            let mut moved = !self.cells[index].has_portals(&portals);
            // A cell whose portals and own nodes stayed keeps its table (else see `Before`).
            if dirty.binary_search(&index).is_ok() || moved {
                let before = self.cells[index].portals.clone();
                // On an error the buffers go: the next update grows fresh ones.
                let derived = self.rederive(
                    graph,
                    index,
                    portals,
                    &changes.changed,
                    &mut scratch,
                    keep.then_some(&mut derived_before),
                )?;
                // The same portals may fall into other groups, in another order: the exits
                // into the cell name them by place.
                moved |= derived && self.cells[index].portals != before;
            }
            if moved {
                resolve.extend(self.cells_around(self.cells[index].chunk));
            }
        }
        UPDATE_SCRATCH.set(scratch);
        resolve.sort_unstable();
        resolve.dedup();
        for &index in &resolve {
            self.resolve_exits(graph, index);
        }
        if keep {
            keep = self.carry_landmarks(&derived_before, &exits_before, &resolve);
        }
        if !keep {
            // A new or cheaper edge that the landmark values do not allow (a bound could
            // overestimate).
            self.landmarks = PackedLandmarks::default();
        }
        if emptied {
            // The emptied cells have no portal and no exit left: the updates above took their
            // nodes' portals and the neighbours' transitions into them away.
            self.drop_empty_cells();
        } else if self.used_slots * 2 < self.slot_cell.len() {
            // Cells that grew left more than half the slots unused.
            self.lay_out_slots();
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

    /// Drops the cells without nodes and numbers the others again (in `by_chunk` and the
    /// slots, the exits' targets with them): a pass over every cell, but only after an update that emptied
    /// a column, itself a pass over the column's thousands of nodes.
    fn drop_empty_cells(&mut self) {
        let mut kept = 0;
        let renumber: Vec<u32> = self
            .cells
            .iter()
            .map(|cell| {
                if cell.nodes == 0 {
                    return NO_CELL;
                }
                kept += 1;
                kept - 1
            })
            .collect();
        self.cells.retain(|cell| cell.nodes > 0);
        self.by_chunk.retain(|_, index| {
            *index = renumber[*index as usize];
            *index != NO_CELL
        });
        if !self.landmarks.is_empty() {
            self.landmarks.renumber_groups(&renumber, self.cells.len());
        }
        self.lay_out_slots();
    }

    /// Gives every cell exactly the overlay slots its portals need, in cell order, and moves
    /// the exits' targets with them.
    fn lay_out_slots(&mut self) {
        let mut moved_to = vec![NO_SLOT; self.slot_cell.len()];
        self.slot_cell.clear();
        for (index, cell) in self.cells.iter_mut().enumerate() {
            let count = cell.portals.len() as u32;
            let base = self.slot_cell.len() as u32;
            for local in 0..count {
                moved_to[(cell.base + local) as usize] = base + local;
            }
            cell.base = base;
            cell.capacity = count;
            self.slot_cell
                .extend(std::iter::repeat_n(index as u32, count as usize));
        }
        self.slot_cell.shrink_to_fit();
        for target in self.cells.iter_mut().flat_map(|cell| &mut cell.targets) {
            if *target != NO_SLOT {
                *target = moved_to[*target as usize];
            }
        }
        if !self.landmarks.is_empty() {
            self.landmarks.move_slots(&moved_to, self.slot_cell.len());
        }
    }

    /// The cell of the portal in `slot` and the portal's place in it; `None` for a slot a cell
    /// left when it moved to more slots (it still names the cell but holds no portal).
    #[inline]
    fn slot_portal(&self, slot: u32) -> Option<(&HpaCell, usize)> {
        let cell = &self.cells[self.slot_cell[slot as usize] as usize];
        let local = slot.checked_sub(cell.base)? as usize;
        (local < cell.portals.len()).then_some((cell, local))
    }

    /// Visits the abstract edges out of the portal in `slot`: its table row (when `row`) and
    /// its exits.
    fn for_each_edge(&self, slot: u32, row: bool, mut visit: impl FnMut(u32, u32)) {
        let Some((cell, local)) = self.slot_portal(slot) else {
            return;
        };
        if row {
            cell.for_each_in_row(local, |other, cost| {
                if other != local {
                    visit(cell.base + other as u32, cost);
                }
            });
        }
        let portal = cell.portals[local];
        let first = cell.exits.partition_point(|exit| exit.from < portal);
        for (exit, &target) in cell.exits[first..]
            .iter()
            .zip(&cell.targets[first..])
            .take_while(|(exit, _)| exit.from == portal)
        {
            if target != NO_SLOT {
                visit(target, exit.cost);
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
        self.used_slots
    }

    /// The number of cells (chunk columns with a node of the graph).
    #[must_use]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Every edge of the abstraction by feet positions, sorted: `(from, to, cost)` for each
    /// pair of portals of one cell with a route inside it and for each transition between
    /// cells (to the portal the search follows it to). For inspection and tests: two
    /// abstractions of the same graph list the same edges.
    #[must_use]
    pub fn edges(&self, graph: &NavGraph) -> Vec<(IVec3, IVec3, u32)> {
        let mut edges = Vec::new();
        for cell in &self.cells {
            let n = cell.portals.len();
            for i in 0..n {
                for j in 0..n {
                    if let Some(cost) = cell.cost(i, j) {
                        let (from, to) = (cell.portals[i], cell.portals[j]);
                        edges.push((graph.feet(from), graph.feet(to), cost));
                    }
                }
            }
            // Transitions by the portal their target resolved to, found per portal as the
            // search finds them, so that a stale resolution (or exit range) shows as a
            // difference from a fresh build.
            for (local, &portal) in cell.portals.iter().enumerate() {
                let Some(first) = cell.first_exit(local) else {
                    continue;
                };
                for (exit, &target) in cell.exits[first..]
                    .iter()
                    .zip(&cell.targets[first..])
                    .take_while(|(exit, _)| exit.from == portal)
                {
                    if let Some(to) = (target != NO_SLOT)
                        .then(|| self.slot_portal(target))
                        .flatten()
                        .map(|(cell, local)| cell.feet(local))
                    {
                        edges.push((graph.feet(exit.from), to, exit.cost));
                    }
                }
            }
        }
        edges.sort_unstable_by_key(|&(from, to, cost)| (from.to_array(), to.to_array(), cost));
        edges
    }

    /// The memory the abstraction holds, in bytes (its arrays' and maps' capacities; a hash
    /// map entry counted at its key and value plus one control byte).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let cells: usize = self.cells.iter().map(HpaCell::memory_bytes).sum();
        let entry = |key: usize, value: usize| key + value + 1;
        cells
            + self.cells.capacity().saturating_sub(self.cells.len())
                * std::mem::size_of::<HpaCell>()
            + self.by_chunk.capacity() * entry(8, 4)
            + self.slot_cell.capacity() * 4
            + self.landmarks.memory_bytes()
    }
}
