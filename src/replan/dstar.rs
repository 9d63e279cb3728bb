//! [`DStarLite`]: incremental replanning by D* Lite (Koenig and Likhachev, 2002) over the
//! walking-rule graph; see the [module docs](super) for when it pays.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

use ahash::{AHashMap, AHashSet};
use glam::IVec3;

use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::pathcheck::move_between;
use crate::moves::{
    DIRECTIONS, Move, MoveKind, ladder_climb, move_in_direction, neighbours, terrain_cost,
};
use crate::search::heuristic::{Estimator, Heuristic};
use crate::search::nodes::NodeTable;
use crate::search::{SearchResult, SearchStats, SearchStatus};
use crate::world::chunked::Changes;
use crate::world::key::{in_key_range, pack, unpack};
use crate::world::{AROUND, ColumnBits, VoxelWorld, check_feet, is_valid_feet};

const INF: u64 = u64::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    feet: IVec3,
    g: u64,
    rhs: u64,
    key: (u64, u64),
    queued: bool,
    /// Where the node's moves start in `DStarLite::moves_store` (`NO_MOVES` when not known),
    /// and how many there are.
    moves_at: u32,
    moves_len: u8,
}

/// [`Node::moves_at`] of a node whose moves are not known.
const NO_MOVES: u32 = u32::MAX;

/// A queue entry; the heap pops the smallest key. Stale entries (the node left the queue or
/// got a new key) are skipped when popped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: (u64, u64),
    node: u32,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// D* Lite for one agent and its costs: plan once with [`DStarLite::plan`], then call
/// [`DStarLite::replan`] with the agent's position and the cells that changed.
///
/// Only for bounded worlds (an unbounded world could make a repair endless).
///
/// ```
/// use glam::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts};
/// use voxnav::DStarLite;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(12, 4, 5))?;
/// world.fill(IVec3::ZERO, IVec3::new(11, 0, 4), Block::Solid)?;
/// let mut dstar = DStarLite::new(Agent::default(), MoveCosts::default())?;
/// let first = dstar.plan(&world, IVec3::new(0, 1, 2), IVec3::new(11, 1, 2))?;
/// assert_eq!(first.cost, Some(110));
///
/// // The agent walked three steps; a player builds a wall across the row ahead.
/// world.track_changes(true);
/// world.fill(IVec3::new(6, 1, 1), IVec3::new(6, 2, 3), Block::Solid)?;
/// let changed: Vec<IVec3> = world.take_changes().positions().collect();
/// let again = dstar.replan(&world, IVec3::new(3, 1, 2), &changed)?;
/// // Round the wall's end at z = 0: four diagonal and four straight steps.
/// assert_eq!(again.cost, Some(4 * 14 + 4 * 10));
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DStarLite {
    agent: Agent,
    costs: MoveCosts,
    estimator: Estimator,
    nodes: Vec<Node>,
    table: NodeTable,
    open: BinaryHeap<Entry>,
    pub(super) goal: IVec3,
    start: IVec3,
    km: u64,
    planned: bool,
    moves: Vec<Move>,
    preds: Vec<(IVec3, u32)>,
    affected: AHashSet<u64>,
    pub(super) stats: SearchStats,
    /// The last route returned, goal first, so that positions keep their index when a new
    /// route shares the old one's end.
    route_rev: Vec<IVec3>,
    /// `route_step[i]`: the cost of the move from `route_rev[i]` to `route_rev[i - 1]` when
    /// last priced (`BROKEN` when it is no longer legal; 0 for the goal).
    route_step: Vec<u32>,
    /// `route_rest[i]`: the cost from `route_rev[i]` to the goal along the route (`INF` when a
    /// move on the way broke).
    route_rest: Vec<u64>,
    /// Each route position's index in `route_rev`.
    route_index: AHashMap<u64, u32>,
    /// Positions whose moves may have changed since the route was last priced.
    dirty: AHashSet<u64>,
    /// The costs of the moves taken by the route being extracted.
    steps: Vec<u32>,
    /// The moves (target, cost) of nodes, remembered until a change may alter them.
    moves_store: Vec<(IVec3, u32)>,
}

/// A route step that is no longer a legal move.
const BROKEN: u32 = u32::MAX;

impl DStarLite {
    /// D* Lite for `agent` moving at `costs`, with the default (octile) heuristic.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are out of range, or the agent
    /// does not walk.
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        agent.validate()?;
        agent.require_walking("D* Lite")?;
        costs.validate()?;
        Ok(Self {
            agent,
            costs,
            estimator: Heuristic::default().estimator(&agent, &costs),
            nodes: Vec::new(),
            table: NodeTable::default(),
            open: BinaryHeap::new(),
            goal: IVec3::ZERO,
            start: IVec3::ZERO,
            km: 0,
            planned: false,
            moves: Vec::with_capacity(10),
            preds: Vec::new(),
            affected: AHashSet::new(),
            stats: SearchStats::default(),
            route_rev: Vec::new(),
            route_step: Vec::new(),
            route_rest: Vec::new(),
            route_index: AHashMap::new(),
            dirty: AHashSet::new(),
            steps: Vec::new(),
            moves_store: Vec::new(),
        })
    }

    /// The goal of the current plan.
    #[must_use]
    pub fn goal(&self) -> IVec3 {
        self.goal
    }

    /// The number of nodes the search state holds (for statistics).
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Plans from scratch: forgets earlier work and finds an optimal route from the feet
    /// position `start` to the feet position `goal`.
    ///
    /// # Errors
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either is not a valid feet
    /// position, [`Error::Unbounded`] for a world without bounds.
    pub fn plan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        self.reset(world, start, goal)?;
        self.compute(world, u64::MAX);
        let result = self.result(world, started);
        self.reserve_for_repairs();
        Ok(result)
    }

    /// Makes room for repairs to grow the search state by a quarter without reallocating (a
    /// reallocation copies the whole table, a cost better paid when planning than on the
    /// agent's next replan).
    fn reserve_for_repairs(&mut self) {
        let nodes = self.nodes.len();
        self.nodes.reserve(nodes / 4);
        self.open.reserve(self.open.len() / 4 + 1024);
        self.moves_store.reserve(nodes * 2);
    }

    /// Replans from the agent's current feet position `position` after the cells `changed`
    /// changed (in any way), reusing the work of earlier calls. `position` may be anywhere,
    /// usually a position of the last route. With a [`ChunkedWorld`](crate::ChunkedWorld),
    /// [`DStarLite::replan_changes`] does less work.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] before the first [`DStarLite::plan`];
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when `position` or the goal is not a
    /// valid feet position any more. Nothing is changed then: pass the same cells again.
    pub fn replan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: &[IVec3],
    ) -> Result<SearchResult> {
        let started = Instant::now();
        self.update(world, position, changed.iter().map(|&cell| (cell, true)))?;
        self.compute(world, u64::MAX);
        Ok(self.result(world, started))
    }

    /// [`DStarLite::replan`] for the changes a [`ChunkedWorld`](crate::ChunkedWorld) reports
    /// ([`ChunkedWorld::take_changes`](crate::ChunkedWorld::take_changes)): knowing which
    /// changes involve lava, it re-examines a smaller neighbourhood around the others.
    ///
    /// # Errors
    /// As [`DStarLite::replan`].
    pub fn replan_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changes: &Changes,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        self.update(world, position, lava_aware(changes))?;
        self.compute(world, u64::MAX);
        Ok(self.result(world, started))
    }

    fn reset<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
    ) -> Result<()> {
        check_feet(world, start, self.agent.height)
            .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        check_feet(world, goal, self.agent.height)
            .map_err(|reason| Error::InvalidGoal { pos: goal, reason })?;
        if world.bounds().is_none() {
            return Err(Error::Unbounded);
        }
        self.nodes.clear();
        self.table.clear();
        self.open.clear();
        self.moves_store.clear();
        self.km = 0;
        self.start = start;
        self.goal = goal;
        self.stats = SearchStats::default();
        self.forget_route();
        let node = self.node(goal);
        self.nodes[node as usize].rhs = 0;
        self.update_vertex(node);
        self.planned = true;
        Ok(())
    }

    /// Moves the start to `position` and recomputes the costs of every node whose moves may
    /// read a changed cell (`(cell, lava)`: `lava` when the change may have added or removed
    /// danger). Leaves the repair itself to [`DStarLite::compute`].
    pub(super) fn update<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: impl Iterator<Item = (IVec3, bool)>,
    ) -> Result<()> {
        if !self.planned {
            return Err(Error::InvalidSetting(
                "D* Lite: call `plan` before `replan`".into(),
            ));
        }
        check_feet(world, position, self.agent.height).map_err(|reason| Error::InvalidStart {
            pos: position,
            reason,
        })?;
        check_feet(world, self.goal, self.agent.height).map_err(|reason| Error::InvalidGoal {
            pos: self.goal,
            reason,
        })?;
        self.stats = SearchStats::default();
        if position != self.start {
            self.km = self
                .km
                .saturating_add(self.estimator.between(self.start, position));
            self.start = position;
        }
        // A move from feet `f` (its validity, its target, the corners of a diagonal, the head
        // room of a step up, the floor under a drop, the terrain of its target, a ladder climb
        // and its target) reads cells of the 3x3 columns around `f`, from
        // `f.y - max(max_drop, 1) - 1` to `f.y + max(max_step_up, 1) + height - 1`. Danger
        // reaches one cell further around the target: 5x5 columns, one more cell up and down.
        let (step, drop, height) = (
            self.agent.max_step_up.max(1) as i32,
            self.agent.max_drop.max(1) as i32,
            self.agent.height as i32,
        );
        // Only valid feet positions have moves, and a position that is not valid now but was
        // before has a changed cell in its own body or floor: those are the only positions to
        // look at. Valid ones are found from one column read per column.
        let mut affected = std::mem::take(&mut self.affected);
        affected.clear();
        for (cell, lava) in changed {
            for k in -1..height {
                let feet = cell - IVec3::new(0, k, 0);
                if in_key_range(feet) && self.table.get(feet).is_some() {
                    affected.insert(pack(feet));
                }
            }
            let (reach, extra) = if lava { (2, 1) } else { (1, 0) };
            let (low, high) = (
                cell.y - step - height + 1 - extra,
                cell.y + drop + 1 + extra,
            );
            let count = (high - low + 1 + height + 1) as u32;
            for dx in -reach..=reach {
                for dz in -reach..=reach {
                    let (x, z) = (cell.x + dx, cell.z + dz);
                    let bits = (count <= 64).then(|| world.column(x, z, low - 1, count));
                    for y in low..=high {
                        let feet = IVec3::new(x, y, z);
                        let valid = match bits {
                            Some(bits) => {
                                let i = (y - low + 1) as u32;
                                let body = (1u64 << height) - 1;
                                (bits.standable >> (i - 1)) & 1 != 0
                                    && (bits.passable >> i) & body == body
                            }
                            None => is_valid_feet(world, feet, self.agent.height),
                        };
                        if valid && in_key_range(feet) {
                            affected.insert(pack(feet));
                        }
                    }
                }
            }
        }
        for &key in &affected {
            let feet = unpack(key);
            if feet == self.goal {
                continue;
            }
            let known = self.table.get(feet);
            if let Some(node) = known {
                self.nodes[node as usize].moves_at = NO_MOVES;
            }
            let rhs = self.best_successor(world, feet, known);
            let node = match known {
                Some(node) => node,
                None if rhs == INF => continue,
                None => self.node(feet),
            };
            self.nodes[node as usize].rhs = rhs;
            self.update_vertex(node);
        }
        self.dirty.extend(affected.iter().copied());
        self.affected = affected;
        Ok(())
    }

    /// The node of `feet`, created with infinite costs when new.
    fn node(&mut self, feet: IVec3) -> u32 {
        if let Some(node) = self.table.get(feet) {
            return node;
        }
        let node = self.nodes.len() as u32;
        self.nodes.push(Node {
            feet,
            g: INF,
            rhs: INF,
            key: (INF, INF),
            queued: false,
            moves_at: NO_MOVES,
            moves_len: 0,
        });
        self.table.insert(feet, node);
        node
    }

    #[inline]
    fn g_of(&self, feet: IVec3) -> u64 {
        self.table
            .get(feet)
            .map_or(INF, |node| self.nodes[node as usize].g)
    }

    #[inline]
    fn key_of(&self, node: &Node) -> (u64, u64) {
        let best = node.g.min(node.rhs);
        if best == INF {
            return (INF, INF);
        }
        (
            best.saturating_add(self.estimator.between(self.start, node.feet))
                .saturating_add(self.km),
            best,
        )
    }

    fn update_vertex(&mut self, node: u32) {
        let n = self.nodes[node as usize];
        if n.g == n.rhs {
            self.nodes[node as usize].queued = false;
            return;
        }
        let key = self.key_of(&n);
        if !n.queued || n.key != key {
            let entry = &mut self.nodes[node as usize];
            entry.key = key;
            entry.queued = true;
            self.open.push(Entry { key, node });
        }
    }

    /// The smallest `cost + g(successor)` over the moves from `feet` (infinite when `feet` is
    /// not a valid feet position or has no move toward a node with a known cost).
    fn best_successor<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        feet: IVec3,
        node: Option<u32>,
    ) -> u64 {
        let total = |this: &Self, (to, cost): (IVec3, u32)| {
            let g = this.g_of(to);
            if g == INF { INF } else { g + u64::from(cost) }
        };
        let Some(node) = node else {
            // No node to remember the moves by.
            if !is_valid_feet(world, feet, self.agent.height) {
                return INF;
            }
            let mut moves = std::mem::take(&mut self.moves);
            neighbours(world, &self.agent, &self.costs, feet, &mut moves);
            let best = moves
                .iter()
                .filter(|m| in_key_range(m.feet))
                .map(|m| total(self, (m.feet, m.cost)))
                .min()
                .unwrap_or(INF);
            self.moves = moves;
            return best;
        };
        let range = self.moves_of(world, node);
        self.moves_store[range]
            .iter()
            .map(|&m| total(self, m))
            .min()
            .unwrap_or(INF)
    }

    /// The moves (target, cost) of `node`, from `moves_store`, generated when not known.
    fn moves_of<W: VoxelWorld + ?Sized>(&mut self, world: &W, node: u32) -> std::ops::Range<usize> {
        let n = self.nodes[node as usize];
        if n.moves_at != NO_MOVES {
            let at = n.moves_at as usize;
            return at..at + usize::from(n.moves_len);
        }
        // Forget every remembered move when stale copies pile up.
        if self.moves_store.len() > 16 * self.nodes.len() + 4096 {
            self.moves_store.clear();
            for node in &mut self.nodes {
                node.moves_at = NO_MOVES;
            }
        }
        let mut moves = std::mem::take(&mut self.moves);
        if is_valid_feet(world, n.feet, self.agent.height) {
            neighbours(world, &self.agent, &self.costs, n.feet, &mut moves);
        } else {
            moves.clear();
        }
        let at = self.moves_store.len();
        self.moves_store.extend(
            moves
                .iter()
                .filter(|m| in_key_range(m.feet))
                .map(|m| (m.feet, m.cost)),
        );
        self.moves = moves;
        let entry = &mut self.nodes[node as usize];
        entry.moves_at = at as u32;
        entry.moves_len = (self.moves_store.len() - at) as u8;
        at..self.moves_store.len()
    }

    /// Every valid feet position with a move that lands on `feet`, with that move's cost,
    /// into `self.preds`.
    ///
    /// The candidates are the valid feet positions of the 8 neighbouring columns from
    /// `feet.y - max_step_up` to `feet.y + max_drop`, plus the cells straight above and below
    /// (ladders). For each, the walking rules of [`crate::moves`] are applied to the 9 columns
    /// around `feet`, read once: a candidate is a predecessor when its move toward `feet`'s
    /// column lands exactly on `feet`. Every such move ends at `feet`, so its terrain terms are
    /// computed once.
    fn predecessors<W: VoxelWorld + ?Sized>(&mut self, world: &W, feet: IVec3) {
        self.preds.clear();
        let agent = self.agent;
        let (step, drop, height) = (agent.max_step_up, agent.max_drop, agent.height);
        let count = step + drop + height + 1;
        if count <= 64 {
            // Bit b of a column describes height `base + b`; `feet` is at bit `step + 1`.
            let base = feet.y - step as i32 - 1;
            let columns = world.columns_around(feet.x, feet.z, base, count);
            let arrival = terrain_cost(world.terrain(feet), &self.costs)
                .saturating_add(world.extra_cost(feet));
            let rules = PredecessorRules {
                target: columns[0],
                at: step + 1,
                body: (1u64 << height) - 1,
                height,
                max_drop: drop,
                max_step_up: step,
            };
            // Only a valid feet position can be arrived at.
            let directions = if !(PredecessorRules::standable(rules.target, rules.at - 1)
                && rules.fits(rules.target, rules.at))
            {
                0
            } else if agent.diagonals {
                8
            } else {
                4
            };
            for (i, &direction) in DIRECTIONS[..directions].iter().enumerate() {
                let own = columns[around_index(-direction.x, -direction.z)];
                let sides = (i >= 4).then(|| {
                    (
                        columns[around_index(0, -direction.z)],
                        columns[around_index(-direction.x, 0)],
                    )
                });
                for from_bit in 1..=step + drop + 1 {
                    let Some(kind) = rules.arrives(own, sides, from_bit) else {
                        continue;
                    };
                    let from = IVec3::new(
                        feet.x - direction.x,
                        base + from_bit as i32,
                        feet.z - direction.z,
                    );
                    if !in_key_range(from) {
                        continue;
                    }
                    let horizontal = if i >= 4 {
                        self.costs.diagonal
                    } else {
                        self.costs.straight
                    };
                    let vertical = match kind {
                        MoveKind::Walk => 0,
                        MoveKind::StepUp(k) => k * self.costs.ascend,
                        MoveKind::Drop(k) => k * self.costs.descend,
                    };
                    self.preds
                        .push((from, (horizontal + vertical).saturating_add(arrival)));
                }
            }
        } else {
            self.predecessors_cell_by_cell(world, feet);
        }
        for (from, up) in [(feet - IVec3::Y, true), (feet + IVec3::Y, false)] {
            if in_key_range(from)
                && is_valid_feet(world, from, agent.height)
                && let Some(m) = ladder_climb(world, &agent, &self.costs, from, up)
                && m.feet == feet
            {
                self.preds.push((from, m.cost));
            }
        }
    }

    /// [`DStarLite::predecessors`] for agents too tall for one column read: the candidates'
    /// moves are replayed with [`move_in_direction`].
    fn predecessors_cell_by_cell<W: VoxelWorld + ?Sized>(&mut self, world: &W, feet: IVec3) {
        let agent = self.agent;
        let directions = if agent.diagonals {
            &DIRECTIONS[..]
        } else {
            &DIRECTIONS[..4]
        };
        for &direction in directions {
            let column = feet - direction;
            for y in feet.y - agent.max_step_up as i32..=feet.y + agent.max_drop as i32 {
                let from = IVec3::new(column.x, y, column.z);
                if !in_key_range(from) || !is_valid_feet(world, from, agent.height) {
                    continue;
                }
                if let Some(m) = move_in_direction(world, &agent, &self.costs, from, direction)
                    && m.feet == feet
                {
                    self.preds.push((from, m.cost));
                }
            }
        }
    }

    /// The smallest valid queue entry, stale entries dropped.
    fn top(&mut self) -> Option<Entry> {
        while let Some(&entry) = self.open.peek() {
            let node = &self.nodes[entry.node as usize];
            if node.queued && node.key == entry.key {
                return Some(entry);
            }
            self.open.pop();
        }
        None
    }

    /// D* Lite's `ComputeShortestPath`, for at most `max_expansions` expansions. Returns
    /// whether it finished (the start is consistent and nothing queued can improve it); an
    /// unfinished repair may be resumed by a later call.
    pub(super) fn compute<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        max_expansions: u64,
    ) -> bool {
        let mut expansions = 0u64;
        loop {
            let start_node = self.table.get(self.start);
            let (start_key, start_inconsistent) = match start_node {
                Some(node) => {
                    let n = self.nodes[node as usize];
                    (self.key_of(&n), n.rhs != n.g)
                }
                None => ((INF, INF), false),
            };
            let Some(top) = self.top() else {
                return true;
            };
            if top.key >= start_key && !start_inconsistent {
                return true;
            }
            if expansions >= max_expansions {
                return false;
            }
            expansions += 1;
            self.stats.expanded += 1;
            let u = top.node;
            let n = self.nodes[u as usize];
            let fresh_key = self.key_of(&n);
            if top.key < fresh_key {
                self.nodes[u as usize].key = fresh_key;
                self.open.push(Entry {
                    key: fresh_key,
                    node: u,
                });
                continue;
            }
            self.predecessors(world, n.feet);
            let preds = std::mem::take(&mut self.preds);
            if n.g > n.rhs {
                // Overconsistent: settle it and offer it to its predecessors.
                self.nodes[u as usize].g = n.rhs;
                self.nodes[u as usize].queued = false;
                for &(from, cost) in &preds {
                    if from == self.goal {
                        continue;
                    }
                    let s = self.node(from);
                    let offer = n.rhs + u64::from(cost);
                    if offer < self.nodes[s as usize].rhs {
                        self.nodes[s as usize].rhs = offer;
                        self.update_vertex(s);
                        self.stats.generated += 1;
                    }
                }
            } else {
                // Underconsistent: its cost went up; whoever relied on it looks again.
                let g_old = n.g;
                self.nodes[u as usize].g = INF;
                for &(from, cost) in &preds {
                    if from == self.goal {
                        continue;
                    }
                    let Some(s) = self.table.get(from) else {
                        continue;
                    };
                    if g_old != INF && self.nodes[s as usize].rhs == g_old + u64::from(cost) {
                        let rhs = self.best_successor(world, from, Some(s));
                        self.nodes[s as usize].rhs = rhs;
                        self.update_vertex(s);
                        self.stats.generated += 1;
                    }
                }
                if n.feet != self.goal {
                    let rhs = self.best_successor(world, n.feet, Some(u));
                    self.nodes[u as usize].rhs = rhs;
                }
                self.update_vertex(u);
            }
            self.preds = preds;
        }
    }

    /// The route from the start, following the cheapest `cost + g` successor to the goal;
    /// where it reaches a position of the last route whose rest still costs exactly that
    /// position's cost-to-goal, it keeps that rest (an optimal continuation) instead of
    /// following successors to the end.
    pub(super) fn result<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        started: Instant,
    ) -> SearchResult {
        let mut stats = self.stats;
        stats.elapsed = started.elapsed();
        let unreachable = SearchResult::unreachable(stats);
        if self.g_of(self.start) == INF {
            self.forget_route();
            return unreachable;
        }
        self.reprice_route(world);
        let mut path = vec![self.start];
        let mut steps = std::mem::take(&mut self.steps);
        steps.clear();
        let mut cost = 0u64;
        let mut feet = self.start;
        let mut junction = None;
        while feet != self.goal && path.len() <= self.nodes.len() {
            if let Some(&i) = self.route_index.get(&pack(feet)) {
                let i = i as usize;
                let (rest, g) = (self.route_rest[i], self.g_of(feet));
                if rest != INF && rest == g {
                    junction = Some(i);
                    cost += rest;
                    break;
                }
                // The old route's next step, when it is still an optimal move, saves looking
                // at every neighbour.
                if i > 0 && self.route_step[i] != BROKEN {
                    let (next, step) = (self.route_rev[i - 1], self.route_step[i]);
                    let next_g = self.g_of(next);
                    if next_g != INF && next_g + u64::from(step) == g {
                        cost += u64::from(step);
                        steps.push(step);
                        feet = next;
                        path.push(feet);
                        continue;
                    }
                }
            }
            let Some(node) = self.table.get(feet) else {
                break;
            };
            let range = self.moves_of(world, node);
            let next = self.moves_store[range]
                .iter()
                .filter_map(|&(to, step)| {
                    let g = self.g_of(to);
                    (g != INF).then(|| (g + u64::from(step), to, step))
                })
                .min_by_key(|&(total, _, _)| total);
            let Some((_, to, step)) = next else {
                break;
            };
            cost += u64::from(step);
            steps.push(step);
            feet = to;
            path.push(feet);
        }
        if junction.is_none() && feet != self.goal {
            self.steps = steps;
            self.forget_route();
            return unreachable;
        }
        let prefix = path.len();
        if let Some(i) = junction {
            path.extend(self.route_rev[..i].iter().rev());
        }
        self.store_route(&path[..prefix], &steps, junction);
        self.steps = steps;
        let mut stats = self.stats;
        stats.elapsed = started.elapsed();
        SearchResult {
            status: SearchStatus::Found,
            path,
            cost: Some(cost),
            stats,
        }
    }

    fn forget_route(&mut self) {
        self.route_rev.clear();
        self.route_step.clear();
        self.route_rest.clear();
        self.route_index.clear();
        self.dirty.clear();
    }

    /// Re-prices the steps of the last route that start at a dirty position, and the rest
    /// costs above the lowest of them.
    fn reprice_route<W: VoxelWorld + ?Sized>(&mut self, world: &W) {
        let mut lowest = usize::MAX;
        for key in &self.dirty {
            let Some(&i) = self.route_index.get(key) else {
                continue;
            };
            let i = i as usize;
            if i == 0 {
                continue;
            }
            let (from, to) = (self.route_rev[i], self.route_rev[i - 1]);
            self.route_step[i] = if is_valid_feet(world, from, self.agent.height) {
                move_between(world, &self.agent, &self.costs, from, to).map_or(BROKEN, |m| m.cost)
            } else {
                BROKEN
            };
            lowest = lowest.min(i);
        }
        self.dirty.clear();
        for i in lowest..self.route_rev.len() {
            let (below, step) = (self.route_rest[i - 1], self.route_step[i]);
            self.route_rest[i] = if below == INF || step == BROKEN {
                INF
            } else {
                below + u64::from(step)
            };
        }
    }

    /// Remembers the new route: `prefix` (start first) with the costs of its moves `steps`,
    /// then, from `junction` on, the old route's end (or `prefix` alone reaches the goal).
    fn store_route(&mut self, prefix: &[IVec3], steps: &[u32], junction: Option<usize>) {
        let keep = match junction {
            Some(i) => i + 1,
            None => 0,
        };
        for p in &self.route_rev[keep.min(self.route_rev.len())..] {
            self.route_index.remove(&pack(*p));
        }
        self.route_rev.truncate(keep);
        self.route_step.truncate(keep);
        self.route_rest.truncate(keep);
        // `prefix` ends at the junction (kept already) or at the goal (stored first).
        let mut m = if keep == 0 {
            prefix.len()
        } else {
            prefix.len() - 1
        };
        while m > 0 {
            m -= 1;
            let p = prefix[m];
            let step = if self.route_rev.is_empty() {
                0
            } else {
                steps[m]
            };
            let rest = self.route_rest.last().map_or(0, |&r| r + u64::from(step));
            let index = self.route_rev.len() as u32;
            if self.route_index.insert(pack(p), index).is_some() {
                // A position twice on one route: keep no route rather than a wrong one.
                self.forget_route();
                return;
            }
            self.route_rev.push(p);
            self.route_step.push(step);
            self.route_rest.push(rest);
        }
    }
}

/// The index in [`AROUND`] of the column offset `(dx, dz)`.
#[inline]
fn around_index(dx: i32, dz: i32) -> usize {
    AROUND
        .iter()
        .position(|&offset| offset == (dx, dz))
        .unwrap_or(0)
}

/// The walking rules of [`crate::moves`] read backwards on column bitmasks: which move, if
/// any, from a candidate in a neighbouring column lands on the target feet position.
struct PredecessorRules {
    /// The target's column.
    target: ColumnBits,
    /// The bit of the target feet.
    at: u32,
    body: u64,
    height: u32,
    max_drop: u32,
    max_step_up: u32,
}

impl PredecessorRules {
    #[inline]
    fn fits(&self, column: ColumnBits, bit: u32) -> bool {
        (column.passable >> bit) & self.body == self.body
    }

    #[inline]
    fn standable(column: ColumnBits, bit: u32) -> bool {
        (column.standable >> bit) & 1 != 0
    }

    #[inline]
    fn passable(column: ColumnBits, bit: u32) -> bool {
        (column.passable >> bit) & 1 != 0
    }

    /// The move from the feet at `from` (a bit of `own`) toward the target column, when it is
    /// a valid feet position and that move lands exactly on the target feet. `sides` are the
    /// side columns of a diagonal move.
    #[inline]
    fn arrives(
        &self,
        own: ColumnBits,
        sides: Option<(ColumnBits, ColumnBits)>,
        from: u32,
    ) -> Option<MoveKind> {
        if !(Self::standable(own, from - 1) && self.fits(own, from)) {
            return None;
        }
        let target = self.target;
        // Rules 1 and 2, in their order: the first move that applies is the only one.
        let kind = if self.fits(target, from) {
            if Self::standable(target, from - 1) {
                (from == self.at).then_some(MoveKind::Walk)?
            } else {
                // A drop lands on the first valid feet position below; it must be the target.
                if from <= self.at || from - self.at > self.max_drop {
                    return None;
                }
                for bit in (self.at + 1..from).rev() {
                    if !Self::passable(target, bit) || Self::standable(target, bit - 1) {
                        return None;
                    }
                }
                MoveKind::Drop(from - self.at)
            }
        } else {
            // A step up takes the smallest height that works; it must be the target's.
            if from >= self.at || self.at - from > self.max_step_up {
                return None;
            }
            let k = self.at - from;
            for j in 1..=k {
                if !Self::passable(own, from + self.height + j - 1) {
                    return None;
                }
                if j < k && Self::standable(target, from + j - 1) && self.fits(target, from + j) {
                    return None;
                }
            }
            MoveKind::StepUp(k)
        };
        // Rule 3: a diagonal's side columns are passable over the whole sweep.
        if let Some((side_a, side_b)) = sides {
            let top = from.max(self.at) + self.height - 1;
            let span = (low_bits(top + 1)) & !low_bits(from);
            if side_a.passable & span != span || side_b.passable & span != span {
                return None;
            }
        }
        Some(kind)
    }
}

/// `n` low bits set (`n <= 64`).
#[inline]
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The changed cells, each with whether lava came or went there.
pub(super) fn lava_aware(changes: &Changes) -> impl Iterator<Item = (IVec3, bool)> + '_ {
    changes
        .cells
        .iter()
        .map(|c| (c.pos, c.old.is_dangerous() || c.new.is_dangerous()))
}
