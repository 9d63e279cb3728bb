//! [`ReachIndex`]: the labelled regions of a bounded world's valid feet positions.
//!
//! The build and the queries are here; `update.rs` holds the local updates
//! ([`ReachIndex::apply_update`]) and the union-find they share with the build.

use std::time::Instant;

use glam::IVec3;

use crate::error::{Error, Result};
use crate::graph::{NavGraph, NodeId};
use crate::moves::agent::{Agent, MoveCosts};
use crate::world::key::in_key_range;
use crate::world::{Bounds, VersionedWorld, WorldId};

mod added;
mod update;

use update::{DisjointSets, Live};

/// The most columns (x/z cells of the bounds) an index accepts: its column table takes 4
/// bytes per column, 1 GiB at this limit.
const MAX_COLUMNS: u64 = 1 << 28;

/// The most cells an index build reads (every cell of the bounds, once): 2^32, a world of
/// 4096 x 256 x 4096, tens of seconds of reading on one core.
const MAX_CELLS: u64 = 1 << 32;

/// What an index can say about a start and a goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reach {
    /// They lie in different regions: no route exists, either way.
    Separate,
    /// They lie in the same region, but the goal's strongly connected part comes before the
    /// start's in one of two topological orders of the moves, so no route leads from the
    /// start to the goal (one may lead back). Typically the goal is up a ledge that can only
    /// be jumped down from, the start is in a pit, or both drop into the same pit.
    OneWay,
    /// They lie in the same region and nothing is proved: a route may exist, so search.
    SameRegion,
    /// The index cannot tell: it is stale (the world changed), it was built from another
    /// world or for another agent, or a position is not one it labelled.
    Unknown,
}

impl Reach {
    /// Whether this proves that no route exists ([`Reach::Separate`] or [`Reach::OneWay`]).
    #[must_use]
    pub const fn proves_unreachable(self) -> bool {
        matches!(self, Reach::Separate | Reach::OneWay)
    }
}

/// Labels of the connected regions of a bounded world's valid feet positions, for one agent.
///
/// Two facts per valid feet position: its region (moves taken as undirected) and the rank of
/// its strongly connected part in a topological order of the one-way moves (Tarjan's
/// algorithm closes a part only after every part it reaches). Different regions prove that
/// no route exists ([`Reach::Separate`]); in one region, a goal whose part ranks above the
/// start's proves it too ([`Reach::OneWay`]: the goal is up a cliff that can only be jumped
/// down from, or the start is in a pit).
///
/// Parts that reach neither one another fall in one order or the other depending on where
/// the walk began, so a second walk, begun from the other end of the world, ranks every part
/// again: a route needs the goal to rank no higher than the start in both orders. On a
/// terrain this proves the costliest cases, where the start stands on the open ground and the
/// goal on a ledge that only drops into a pit (a search would explore all the open ground
/// before it gave up). Anything else is left to the search.
///
/// Stored per column: a table of where each x/z column's feet positions start, then one
/// height (`i16`), one region label (`u32`) and one rank (`u32`) per valid feet position,
/// and the second rank per part, so memory is `4 * columns + 10 * feet positions` bytes plus
/// one `u32` per region and per strongly connected part ([`ReachIndex::memory_bytes`]).
///
/// After local updates ([`ReachIndex::apply_update`]) it also holds a union-find over region
/// labels (9 bytes per region and per node added since the build) and the positions added
/// since with their labels (8 bytes each, in sorted arrays by chunk column, and 1 KiB per
/// chunk column for where its columns start). Unloads and
/// edits give back what they free: a removed node's position leaves its array, and once fewer than half of the labels added since the build are in use, those in use
/// are renumbered into a fresh union-find (the index's own tables only, never the world's:
/// same sets, same proofs), so the memory follows the loaded columns rather than every
/// column ever loaded.
///
/// Its `Debug` output is a summary (counts, bytes, world and version), not its arrays.
#[derive(Clone)]
pub struct ReachIndex {
    agent: Agent,
    /// The bounds of the build: the box its column table covers.
    bounds: Bounds,
    /// The world's bounds at the version the index describes: those of the build, grown
    /// since as the world loaded columns and the index followed them.
    world_bounds: Bounds,
    world: WorldId,
    version: u64,
    /// For each column `(x - min.x) * size.z + (z - min.z)`, where its feet positions start in
    /// `feet_y` and `labels`; one more entry closes the last column.
    column_start: Vec<u32>,
    feet_y: Vec<i16>,
    labels: Vec<u32>,
    /// The rank of each position's strongly connected part (see [`one_way_ranks`]), which
    /// also names the part.
    ranks: Vec<u32>,
    /// For each part (by its rank), its rank in the second order.
    second_ranks: Vec<u32>,
    region_sizes: Vec<u32>,
    build_time: std::time::Duration,
    /// What local updates ([`ReachIndex::apply_update`]) learnt since the build: `None`
    /// until the first one.
    live: Option<Box<Live>>,
}

impl std::fmt::Debug for ReachIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReachIndex")
            .field("feet", &self.feet_count())
            .field("regions", &self.region_count())
            .field("parts", &self.part_count())
            .field("bounds", &self.bounds)
            .field("memory_bytes", &self.memory_bytes())
            .field("world", &self.world.get())
            .field("version", &self.version)
            .field("local_updates", &self.local_updates())
            .finish_non_exhaustive()
    }
}

impl ReachIndex {
    /// Labels every valid feet position of `world` for `agent`: compiles the walk graph
    /// ([`NavGraph::compile`]) and labels its nodes over its moves ([`ReachIndex::from_graph`]
    /// does the second half for a graph you keep).
    ///
    /// # Errors
    /// [`Error::IndexNeedsBounds`] for a world without finite bounds,
    /// [`Error::IndexTooLarge`] when the bounds reach outside the searchable range (x and z
    /// within `+-2^25`, y within `+-2^11`: no position outside can be searched, so none is
    /// labelled), when the world has more than 2^28 columns, more than 2^32 cells or more
    /// than `u32::MAX` feet positions, [`Error::InvalidSetting`] for an invalid agent or one
    /// that does not walk. Each size check comes before any cell is read, so an oversized
    /// world is refused at once.
    pub fn build<W: VersionedWorld + ?Sized>(world: &W, agent: &Agent) -> Result<Self> {
        let started = Instant::now();
        agent.validate()?;
        agent.require_walking("the reachability index")?;
        let bounds = world.bounds().ok_or(Error::IndexNeedsBounds)?;
        // `max > min` first, so that `max - 1` cannot overflow.
        let nonempty = bounds.max.cmpgt(bounds.min).all();
        if nonempty && !(in_key_range(bounds.min) && in_key_range(bounds.max - IVec3::ONE)) {
            return Err(Error::IndexTooLarge(format!(
                "the bounds {:?}..{:?} reach outside the searchable range \
                 (x and z within +-33554432, y within +-2048)",
                bounds.min.to_array(),
                bounds.max.to_array()
            )));
        }
        // Inside the key range, every size fits an `i32`; empty bounds have size 0.
        let size = if nonempty { bounds.size() } else { IVec3::ZERO };
        let columns = size.x as u64 * size.z as u64;
        if columns > MAX_COLUMNS {
            return Err(Error::IndexTooLarge(format!(
                "{} x {} columns, more than the {MAX_COLUMNS} allowed",
                size.x, size.z
            )));
        }
        let cells = columns * size.y as u64;
        if cells > MAX_CELLS {
            return Err(Error::IndexTooLarge(format!(
                "{} x {} x {} cells, more than the {MAX_CELLS} an index reads",
                size.x, size.y, size.z
            )));
        }
        if !nonempty {
            return Ok(Self::empty(world, agent, bounds, started));
        }
        let graph = NavGraph::compile(world, agent)?;
        let mut index = Self::from_graph(world, &graph)?;
        index.build_time = started.elapsed();
        Ok(index)
    }

    /// Labels the nodes of `graph`, a walk graph of `world` as it is now (compiled or kept up
    /// to date with [`NavGraph::update`]): the index is built for the graph's agent and
    /// remembers `world`'s id and version.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the graph's bounds are not `world`'s; as
    /// [`NavGraph::check_current`] for a stale or broken graph; [`Error::OtherWorld`] for a
    /// graph of another world; [`Error::IndexTooLarge`] as in [`ReachIndex::build`].
    pub fn from_graph<W: VersionedWorld + ?Sized>(world: &W, graph: &NavGraph) -> Result<Self> {
        let started = Instant::now();
        graph.check_current()?;
        graph.check_world(world, "walk graph")?;
        let bounds = graph.bounds();
        if world.bounds() != Some(bounds) {
            return Err(Error::InvalidSetting(format!(
                "the walk graph's bounds {bounds:?} are not the world's {:?}",
                world.bounds()
            )));
        }
        let size = bounds.size();
        let columns = size.x as usize * size.z as usize;
        // Count the feet positions of each column, then place them by column and height.
        let mut column_start = vec![0u32; columns + 1];
        let column_of = |feet: IVec3| {
            (feet.x - bounds.min.x) as usize * size.z as usize + (feet.z - bounds.min.z) as usize
        };
        for id in graph.nodes() {
            column_start[column_of(graph.feet(id)) + 1] += 1;
        }
        for column in 0..columns {
            column_start[column + 1] = column_start[column]
                .checked_add(column_start[column + 1])
                .ok_or_else(|| {
                Error::IndexTooLarge(format!("more than {} valid feet positions", u32::MAX))
            })?;
        }
        let count = column_start[columns] as usize;
        let mut filled = column_start.clone();
        let mut by_slot = vec![0 as NodeId; count];
        for id in graph.nodes() {
            let column = column_of(graph.feet(id));
            by_slot[filled[column] as usize] = id;
            filled[column] += 1;
        }
        for column in 0..columns {
            let range = column_start[column] as usize..column_start[column + 1] as usize;
            by_slot[range].sort_unstable_by_key(|&id| graph.feet(id).y);
        }
        // Bounded worlds lie in the key range, so y fits in an i16.
        let feet_y = by_slot.iter().map(|&id| graph.feet(id).y as i16).collect();
        let mut index = Self {
            agent: *graph.agent(),
            bounds,
            world_bounds: bounds,
            world: world.world_id(),
            version: world.version(),
            column_start,
            labels: Vec::new(),
            ranks: Vec::new(),
            second_ranks: Vec::new(),
            feet_y,
            region_sizes: Vec::new(),
            build_time: std::time::Duration::ZERO,
            live: None,
        };
        index.label_regions(graph, &by_slot);
        index.build_time = started.elapsed();
        Ok(index)
    }

    /// The index of a world with empty bounds: nothing labelled.
    fn empty<W: VersionedWorld + ?Sized>(
        world: &W,
        agent: &Agent,
        bounds: Bounds,
        started: Instant,
    ) -> Self {
        Self {
            agent: *agent,
            bounds,
            world_bounds: bounds,
            world: world.world_id(),
            version: world.version(),
            column_start: vec![0],
            labels: Vec::new(),
            ranks: Vec::new(),
            second_ranks: Vec::new(),
            feet_y: Vec::new(),
            region_sizes: Vec::new(),
            build_time: started.elapsed(),
            live: None,
        }
    }

    /// Rebuilds the index from `world` if it is stale; returns whether it rebuilt.
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn refresh<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        if self.is_current(world) {
            return Ok(false);
        }
        *self = Self::build(world, &self.agent)?;
        Ok(true)
    }

    /// Whether the index still describes `world`: the same world
    /// ([`VersionedWorld::world_id`]), unchanged since the build (same version and bounds).
    /// Another world, a clone included, is never current, whatever its version.
    #[must_use]
    pub fn is_current<W: VersionedWorld + ?Sized>(&self, world: &W) -> bool {
        world.world_id() == self.world
            && world.version() == self.version
            && world.bounds() == Some(self.world_bounds)
    }

    /// The world the index was built from.
    #[must_use]
    pub fn world_id(&self) -> WorldId {
        self.world
    }

    /// The agent the index was built for.
    #[must_use]
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The world version the index was built from.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The number of valid feet positions labelled.
    #[must_use]
    pub fn feet_count(&self) -> usize {
        self.labels.len()
    }

    /// The number of regions.
    #[must_use]
    pub fn region_count(&self) -> usize {
        self.region_sizes.len()
    }

    /// The number of strongly connected parts.
    #[must_use]
    pub fn part_count(&self) -> usize {
        self.second_ranks.len()
    }

    /// The number of feet positions in region `label`, or `None` for an unknown label.
    #[must_use]
    pub fn region_size(&self, label: u32) -> Option<u32> {
        self.region_sizes.get(label as usize).copied()
    }

    /// The heap memory the index holds, in bytes.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.column_start.capacity() * size_of::<u32>()
            + self.feet_y.capacity() * size_of::<i16>()
            + self.labels.capacity() * size_of::<u32>()
            + self.ranks.capacity() * size_of::<u32>()
            + self.second_ranks.capacity() * size_of::<u32>()
            + self.region_sizes.capacity() * size_of::<u32>()
            + self.live.as_ref().map_or(0, |live| {
                live.sets.parent.capacity() * size_of::<u32>() * 2
                    + live.unranked.capacity()
                    + live.added.memory_bytes()
            })
    }

    /// How long [`ReachIndex::build`] took.
    #[must_use]
    pub fn build_time(&self) -> std::time::Duration {
        self.build_time
    }

    /// The region label of the feet position `feet`, or `None` when it is not a valid feet
    /// position of the world the index was built from. Labels run from 0 to
    /// [`ReachIndex::region_count`] - 1; they say nothing once the world has changed.
    #[must_use]
    pub fn region_of(&self, feet: IVec3) -> Option<u32> {
        self.slot_of(feet).map(|slot| self.labels[slot])
    }

    /// Whether a route from `start` to `goal` can exist in `world` for `agent`.
    ///
    /// [`Reach::Separate`] and [`Reach::OneWay`] prove that none exists; [`Reach::Unknown`]
    /// when the index is stale, was built from another world or for another agent, or either
    /// position is not a labelled feet position.
    #[must_use]
    pub fn reach<W: VersionedWorld + ?Sized>(
        &self,
        world: &W,
        agent: &Agent,
        start: IVec3,
        goal: IVec3,
    ) -> Reach {
        if *agent != self.agent || !self.is_current(world) {
            return Reach::Unknown;
        }
        if let Some(live) = &self.live {
            return self.reach_live(live, world, start, goal);
        }
        match (self.slot_of(start), self.slot_of(goal)) {
            (Some(a), Some(b)) if self.labels[a] != self.labels[b] => Reach::Separate,
            (Some(a), Some(b)) if self.ranks[a] < self.ranks[b] => Reach::OneWay,
            (Some(a), Some(b))
                if self.second_ranks[self.ranks[a] as usize]
                    < self.second_ranks[self.ranks[b] as usize] =>
            {
                Reach::OneWay
            }
            (Some(_), Some(_)) => Reach::SameRegion,
            _ => Reach::Unknown,
        }
    }

    #[inline]
    fn column_of(&self, x: i32, z: i32) -> Option<usize> {
        let (min, max) = (self.bounds.min, self.bounds.max);
        if x < min.x || x >= max.x || z < min.z || z >= max.z {
            return None;
        }
        let size_z = (max.z - min.z) as usize;
        Some((x - min.x) as usize * size_z + (z - min.z) as usize)
    }

    #[inline]
    fn slot_of(&self, feet: IVec3) -> Option<usize> {
        let column = self.column_of(feet.x, feet.z)?;
        let from = self.column_start[column] as usize;
        let to = self.column_start[column + 1] as usize;
        let y = i16::try_from(feet.y).ok()?;
        self.feet_y[from..to]
            .iter()
            .position(|&fy| fy == y)
            .map(|offset| from + offset)
    }

    /// Collects the graph's moves between labelled positions (`by_slot[slot]` is the node
    /// of each slot), then labels the undirected regions (union-find) and ranks the strongly
    /// connected parts in two orders ([`one_way_ranks`]).
    fn label_regions(&mut self, graph: &NavGraph, by_slot: &[NodeId]) {
        let count = by_slot.len();
        let moves = collect_moves(graph, by_slot);
        let mut sets = DisjointSets::new(count);
        for slot in 0..count {
            for &other in moves.from(slot) {
                sets.union(slot as u32, other);
            }
        }
        let mut compact = vec![u32::MAX; count];
        let mut labels = Vec::with_capacity(count);
        let mut region_sizes: Vec<u32> = Vec::new();
        for slot in 0..count as u32 {
            let root = sets.find(slot) as usize;
            if compact[root] == u32::MAX {
                compact[root] = region_sizes.len() as u32;
                region_sizes.push(0);
            }
            let label = compact[root];
            region_sizes[label as usize] += 1;
            labels.push(label);
        }
        region_sizes.shrink_to_fit();
        self.labels = labels;
        self.region_sizes = region_sizes;
        let ranks = one_way_ranks(&moves, Walk::Forwards);
        let mut second_ranks = vec![0; ranks.iter().max().map_or(0, |&rank| rank as usize + 1)];
        for (&rank, second) in ranks.iter().zip(one_way_ranks(&moves, Walk::Backwards)) {
            second_ranks[rank as usize] = second;
        }
        self.ranks = ranks;
        self.second_ranks = second_ranks;
    }
}

/// The moves out of every slot, as slots, read from the graph.
fn collect_moves(graph: &NavGraph, by_slot: &[NodeId]) -> MoveTable {
    let count = by_slot.len();
    let mut slot_of = vec![u32::MAX; graph.id_bound()];
    for (slot, &id) in by_slot.iter().enumerate() {
        slot_of[id as usize] = slot as u32;
    }
    let mut table = MoveTable {
        start: Vec::with_capacity(count + 1),
        to: Vec::with_capacity(count * 6),
    };
    table.start.push(0);
    // Costs do not decide whether a move exists, only what it costs.
    let costs = MoveCosts::default();
    for &id in by_slot {
        graph.for_each_move(id, &costs, |step| {
            table.to.push(slot_of[step.node as usize]);
        });
        table.start.push(table.to.len());
    }
    table
}

/// The moves out of each slot: `to[start[slot]..start[slot + 1]]`.
struct MoveTable {
    start: Vec<usize>,
    to: Vec<u32>,
}

impl MoveTable {
    #[inline]
    fn from(&self, slot: usize) -> &[u32] {
        &self.to[self.start[slot]..self.start[slot + 1]]
    }
}

/// Where the depth-first walk of [`one_way_ranks`] begins each new tree: at the lowest slot
/// not yet seen, or the highest.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    Forwards,
    Backwards,
}

/// For each slot, the rank of its strongly connected part in the order Tarjan's algorithm
/// closes them: a part is closed only after every part it reaches, so a route from `a` to
/// `b` needs `rank[a] >= rank[b]` (equal within one part). Parts that reach neither one
/// another are ranked in the order the walk meets them, which `walk` turns around.
fn one_way_ranks(moves: &MoveTable, walk: Walk) -> Vec<u32> {
    let count = moves.start.len() - 1;
    let mut tarjan = Tarjan::new(count);
    for root in 0..count {
        let root = match walk {
            Walk::Forwards => root,
            Walk::Backwards => count - 1 - root,
        };
        if tarjan.order[root] != Tarjan::UNSEEN {
            continue;
        }
        tarjan.discover(moves, root);
        while let Some(frame) = tarjan.frames.last_mut() {
            let slot = frame.0 as usize;
            if frame.1 < moves.start[slot + 1] {
                let next = moves.to[frame.1] as usize;
                frame.1 += 1;
                if tarjan.order[next] == Tarjan::UNSEEN {
                    tarjan.discover(moves, next);
                } else if tarjan.on_stack[next] {
                    tarjan.low[slot] = tarjan.low[slot].min(tarjan.order[next]);
                }
                continue;
            }
            tarjan.finish(slot);
        }
    }
    tarjan.rank
}

/// The state of Tarjan's algorithm, walked without recursion (a world has millions of feet
/// positions, too deep for the call stack).
struct Tarjan {
    order: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    rank: Vec<u32>,
    stack: Vec<u32>,
    /// Depth-first frames: the slot and the position of its next move.
    frames: Vec<(u32, usize)>,
    visited: u32,
    closed: u32,
}

impl Tarjan {
    const UNSEEN: u32 = u32::MAX;

    fn new(count: usize) -> Self {
        Self {
            order: vec![Self::UNSEEN; count],
            low: vec![0; count],
            on_stack: vec![false; count],
            rank: vec![Self::UNSEEN; count],
            stack: Vec::new(),
            frames: Vec::new(),
            visited: 0,
            closed: 0,
        }
    }

    /// Numbers `slot` in visiting order and starts walking its moves.
    fn discover(&mut self, moves: &MoveTable, slot: usize) {
        self.order[slot] = self.visited;
        self.low[slot] = self.visited;
        self.visited += 1;
        self.stack.push(slot as u32);
        self.on_stack[slot] = true;
        self.frames.push((slot as u32, moves.start[slot]));
    }

    /// Leaves `slot`, whose moves are all walked: passes its low link to its parent, and
    /// closes its part when it is the part's root.
    fn finish(&mut self, slot: usize) {
        self.frames.pop();
        if let Some(&(parent, _)) = self.frames.last() {
            self.low[parent as usize] = self.low[parent as usize].min(self.low[slot]);
        }
        if self.low[slot] == self.order[slot] {
            while let Some(member) = self.stack.pop() {
                self.on_stack[member as usize] = false;
                self.rank[member as usize] = self.closed;
                if member as usize == slot {
                    break;
                }
            }
            self.closed += 1;
        }
    }
}
