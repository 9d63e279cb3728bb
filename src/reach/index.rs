//! [`ReachIndex`]: the labelled regions of a bounded world's valid feet positions.

use std::time::Instant;

use glam::IVec3;

use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::neighbours;
use crate::world::{Bounds, VersionedWorld, VoxelWorld};

/// The most columns (x/z cells of the bounds) an index accepts: its column table takes 4
/// bytes per column, 1 GiB at this limit.
const MAX_COLUMNS: u64 = 1 << 28;

/// What an index can say about a start and a goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reach {
    /// They lie in different regions: no route exists, either way.
    Separate,
    /// They lie in the same region, but the goal's strongly connected part comes before the
    /// start's in a topological order of the moves, so no route leads from the start to the
    /// goal (one may lead back). Typically the goal is up a ledge that can only be jumped
    /// down from, or the start is in a pit.
    OneWay,
    /// They lie in the same region and nothing is proved: a route may exist, so search.
    SameRegion,
    /// The index cannot tell: it is stale (the world changed), it was built for another
    /// agent, or a position is not one it labelled.
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
/// down from, or the start is in a pit). Anything else is left to the search.
///
/// Stored per column: a table of where each x/z column's feet positions start, then one
/// height (`i16`), one region label (`u32`) and one rank (`u32`) per valid feet position, so
/// memory is `4 * columns + 10 * feet positions` bytes plus one `u32` per region
/// ([`ReachIndex::memory_bytes`]).
#[derive(Debug, Clone)]
pub struct ReachIndex {
    agent: Agent,
    bounds: Bounds,
    version: u64,
    /// For each column `(x - min.x) * size.z + (z - min.z)`, where its feet positions start in
    /// `feet_y` and `labels`; one more entry closes the last column.
    column_start: Vec<u32>,
    feet_y: Vec<i16>,
    labels: Vec<u32>,
    /// The rank of each position's strongly connected part (see [`one_way_ranks`]).
    ranks: Vec<u32>,
    region_sizes: Vec<u32>,
    build_time: std::time::Duration,
}

impl ReachIndex {
    /// Labels every valid feet position of `world` for `agent`, in one pass over the columns
    /// and one pass over the moves.
    ///
    /// # Errors
    /// [`Error::IndexNeedsBounds`] for a world without finite bounds,
    /// [`Error::IndexTooLarge`] when the world has more than 2^28 columns or more than
    /// `u32::MAX` feet positions, [`Error::InvalidSetting`] for an invalid agent or one that
    /// does not walk.
    pub fn build<W: VersionedWorld + ?Sized>(world: &W, agent: &Agent) -> Result<Self> {
        let started = Instant::now();
        agent.validate()?;
        agent.require_walking("the reachability index")?;
        let bounds = world.bounds().ok_or(Error::IndexNeedsBounds)?;
        let size = bounds.size();
        let columns = size.x as u64 * size.z as u64;
        if columns > MAX_COLUMNS {
            return Err(Error::IndexTooLarge(format!(
                "{} x {} columns, more than the {MAX_COLUMNS} allowed",
                size.x, size.z
            )));
        }
        let version = world.version();
        let (column_start, feet_y) = scan_columns(world, agent, bounds)?;
        let mut index = Self {
            agent: *agent,
            bounds,
            version,
            column_start,
            labels: Vec::new(),
            ranks: Vec::new(),
            feet_y,
            region_sizes: Vec::new(),
            build_time: std::time::Duration::ZERO,
        };
        index.label_regions(world);
        index.build_time = started.elapsed();
        Ok(index)
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

    /// Whether the index still describes `world`: same bounds, same version.
    ///
    /// The version tells only whether the world the index was built from has changed; an
    /// index used with a different world of equal bounds and version can give wrong answers.
    #[must_use]
    pub fn is_current<W: VersionedWorld + ?Sized>(&self, world: &W) -> bool {
        world.version() == self.version && world.bounds() == Some(self.bounds)
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
            + self.region_sizes.capacity() * size_of::<u32>()
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
    /// when the index is stale, was built for another agent, or either position is not a labelled feet
    /// position.
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
        match (self.slot_of(start), self.slot_of(goal)) {
            (Some(a), Some(b)) if self.labels[a] != self.labels[b] => Reach::Separate,
            (Some(a), Some(b)) if self.ranks[a] < self.ranks[b] => Reach::OneWay,
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

    /// Collects every move between labelled positions, then labels the undirected regions
    /// (union-find) and ranks the strongly connected parts ([`one_way_ranks`]).
    fn label_regions<W: VoxelWorld + ?Sized>(&mut self, world: &W) {
        let count = self.feet_y.len();
        let moves = self.collect_moves(world);
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
        self.ranks = one_way_ranks(&moves);
    }

    /// The moves out of every labelled position, as slots.
    fn collect_moves<W: VoxelWorld + ?Sized>(&self, world: &W) -> MoveTable {
        let count = self.feet_y.len();
        let mut table = MoveTable {
            start: Vec::with_capacity(count + 1),
            to: Vec::with_capacity(count * 6),
        };
        table.start.push(0);
        // Costs do not decide whether a move exists, only what it costs.
        let costs = MoveCosts::default();
        let mut moves = Vec::with_capacity(8);
        let size_z = self.bounds.size().z;
        let mut column = 0usize;
        for x in self.bounds.min.x..self.bounds.max.x {
            for z in self.bounds.min.z..self.bounds.min.z + size_z {
                let from = self.column_start[column] as usize;
                let to = self.column_start[column + 1] as usize;
                for slot in from..to {
                    let feet = IVec3::new(x, i32::from(self.feet_y[slot]), z);
                    neighbours(world, &self.agent, &costs, feet, &mut moves);
                    // A move to a position the scan did not label can only come from a world
                    // that breaks the `VoxelWorld` contract (cells outside the bounds must be
                    // neither passable nor standable).
                    table.to.extend(
                        moves
                            .iter()
                            .filter_map(|step| self.slot_of(step.feet))
                            .map(|other| other as u32),
                    );
                    table.start.push(table.to.len());
                }
                column += 1;
            }
        }
        table
    }
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

/// For each slot, the rank of its strongly connected part in the order Tarjan's algorithm
/// closes them: a part is closed only after every part it reaches, so a route from `a` to
/// `b` needs `rank[a] >= rank[b]` (equal within one part).
fn one_way_ranks(moves: &MoveTable) -> Vec<u32> {
    const UNSEEN: u32 = u32::MAX;
    let count = moves.start.len() - 1;
    let mut order = vec![UNSEEN; count];
    let mut low = vec![0u32; count];
    let mut on_stack = vec![false; count];
    let mut rank = vec![UNSEEN; count];
    let mut stack: Vec<u32> = Vec::new();
    // Depth-first frames: the slot and the position of its next move.
    let mut frames: Vec<(u32, usize)> = Vec::new();
    let mut visited = 0u32;
    let mut closed = 0u32;
    for root in 0..count {
        if order[root] != UNSEEN {
            continue;
        }
        order[root] = visited;
        low[root] = visited;
        visited += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        frames.push((root as u32, moves.start[root]));
        while let Some(frame) = frames.last_mut() {
            let slot = frame.0 as usize;
            if frame.1 < moves.start[slot + 1] {
                let next = moves.to[frame.1] as usize;
                frame.1 += 1;
                if order[next] == UNSEEN {
                    order[next] = visited;
                    low[next] = visited;
                    visited += 1;
                    stack.push(next as u32);
                    on_stack[next] = true;
                    frames.push((next as u32, moves.start[next]));
                } else if on_stack[next] {
                    low[slot] = low[slot].min(order[next]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent as usize] = low[parent as usize].min(low[slot]);
            }
            if low[slot] == order[slot] {
                while let Some(member) = stack.pop() {
                    on_stack[member as usize] = false;
                    rank[member as usize] = closed;
                    if member as usize == slot {
                        break;
                    }
                }
                closed += 1;
            }
        }
    }
    rank
}

/// Finds every valid feet position, column by column, each column's cells read once
/// bottom-up: a cell is a valid feet position when the cell below is standable and the run
/// of passable cells starting at it is at least `agent.height` long.
fn scan_columns<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    bounds: Bounds,
) -> Result<(Vec<u32>, Vec<i16>)> {
    let size = bounds.size();
    let height = agent.height as usize;
    let mut column_start = Vec::with_capacity(size.x as usize * size.z as usize + 1);
    let mut feet_y: Vec<i16> = Vec::new();
    let cells = size.y as usize;
    let mut passable = vec![false; cells];
    let mut standable_below = vec![false; cells];
    column_start.push(0);
    for x in bounds.min.x..bounds.max.x {
        for z in bounds.min.z..bounds.max.z {
            let mut floor = world.is_standable(IVec3::new(x, bounds.min.y - 1, z));
            for (i, y) in (bounds.min.y..bounds.max.y).enumerate() {
                let cell = IVec3::new(x, y, z);
                standable_below[i] = floor;
                passable[i] = world.is_passable(cell);
                floor = world.is_standable(cell);
            }
            // `run` counts the passable cells from `i` upward (cells above the world are not
            // passable), so the scan runs top-down over the buffered column.
            let column_first = feet_y.len();
            let mut run = 0usize;
            for i in (0..cells).rev() {
                run = if passable[i] { run + 1 } else { 0 };
                if run >= height && standable_below[i] {
                    // Bounded worlds lie in the key range, so y fits in an i16.
                    feet_y.push((bounds.min.y + i as i32) as i16);
                }
            }
            feet_y[column_first..].reverse();
            let end = u32::try_from(feet_y.len()).map_err(|_| {
                Error::IndexTooLarge(format!("more than {} valid feet positions", u32::MAX))
            })?;
            column_start.push(end);
        }
    }
    feet_y.shrink_to_fit();
    Ok((column_start, feet_y))
}

/// Union by size with path halving.
struct DisjointSets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl DisjointSets {
    fn new(count: usize) -> Self {
        Self {
            parent: (0..count as u32).collect(),
            size: vec![1; count],
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grandparent = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
    }
}
