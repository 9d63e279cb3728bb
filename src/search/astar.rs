//! A* over feet positions.

use std::time::Instant;

use glam::IVec3;

use super::goal::{BlockGoal, Goal};
use super::nodes::{MAX_SEARCH_NODES, NodeTable};
use super::open::OpenSet;
use super::{Budget, SearchOptions, SearchResult, SearchStats, SearchStatus};
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::{
    FREE_ARRIVALS, FREE_DIRECTIONS, NO_ARRIVAL, dominated_moves, free_moves_1,
    free_moves_and_occupancy, free_step_costs, free_target_cost, occupancy_mask, parent_masks_1,
    undominated,
};
use crate::moves::{Expansion, MoveBuffer, WalkingMoves};
use crate::world::VoxelWorld;
use crate::world::key::{in_key_range, pack, unpack};

/// Bit of [`Node::link`] set while the node is expanded (closed); a cheaper route found later
/// clears it (reopens the node).
const CLOSED: u32 = 1 << 31;
/// Where the arrival code sits in [`Node::link`]: 5 bits below [`CLOSED`].
const ARRIVAL_SHIFT: u32 = 26;
/// The parent's index in [`Node::link`].
const PARENT_MASK: u32 = (1 << ARRIVAL_SHIFT) - 1;
/// The parent link of the start node.
const NO_PARENT: u32 = PARENT_MASK;
/// The most nodes one search may create: node indices must fit below the arrival code.
/// That is 67 million nodes, 1.3 GB of node records alone; a search that reaches it stops
/// with the best partial route.
const MAX_NODES: usize = NO_PARENT as usize;
const _: () = assert!(MAX_NODES <= MAX_SEARCH_NODES);

/// One searched position: 20 bytes, so that a search of millions of nodes stays small. No
/// heuristic value is stored: it is computed when the node is pushed, and the open set holds
/// `f`. The open set pops true minima and a node's estimate does not change, so among the
/// entries of one node the one of its cheapest route pops first: an entry popped for a
/// closed node is stale, and no other check is needed.
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(4))]
struct Node {
    /// The feet position, [`pack`]ed: every node is in the key range.
    key: u64,
    /// The cost of the best route found to it.
    g: u64,
    /// The parent's index ([`NO_PARENT`] for the start), the arrival code of the step from
    /// the parent ([`FREE_ARRIVALS`]; [`NO_ARRIVAL`] for the start and for walkers) and
    /// [`CLOSED`].
    link: u32,
}

impl Node {
    #[inline]
    fn feet(self) -> IVec3 {
        unpack(self.key)
    }

    #[inline]
    fn closed(self) -> bool {
        self.link & CLOSED != 0
    }

    #[inline]
    fn parent(self) -> u32 {
        self.link & PARENT_MASK
    }

    #[inline]
    fn arrival(self) -> usize {
        (self.link >> ARRIVAL_SHIFT & 31) as usize
    }
}

/// The link of a node reached from `parent` by a move of arrival code `arrival`, open.
#[inline]
fn link(parent: u32, arrival: usize) -> u32 {
    parent | (arrival as u32) << ARRIVAL_SHIFT
}

/// A move's target as the search sees it: its position, computed only for the targets that
/// get a new cost, and the arrival code of the move.
trait Target: Copy {
    fn feet(self) -> IVec3;
    fn arrival(self) -> usize;
}

impl Target for IVec3 {
    #[inline]
    fn feet(self) -> IVec3 {
        self
    }

    #[inline]
    fn arrival(self) -> usize {
        NO_ARRIVAL
    }
}

/// Whether a search in `world` may meet positions outside the key range: worlds whose
/// bounds lie inside it cannot produce unpackable positions.
fn may_leave_keys<W: VoxelWorld + ?Sized>(world: &W) -> bool {
    world
        .bounds()
        .is_none_or(|b| !(in_key_range(b.min) && in_key_range(b.max - IVec3::ONE)))
}

/// How one movement mode's moves from a position reach the node table: each target is
/// handed to `relax` with its slot in `table` and the cost of the move. Targets outside the
/// key range are left out, and so may be targets the move cannot make cheaper.
trait Successors {
    /// How a move's target reaches the search: a position, or what it takes to compute one
    /// only for the few targets that get a new cost.
    type Target: Target;

    /// Whether the search keeps its nodes in a flat table when the world is bounded and
    /// modest (see [`NodeTable::start`]): worth it where an expansion is cheap, as a free
    /// mover's; a walker's expansion costs tens of thousands of instructions, and pages keep
    /// its memory proportional to the search.
    const FLAT: bool;

    /// The moves from `feet`, entered from its parent by the step of the arrival code
    /// `arrival` ([`FREE_ARRIVALS`]; [`NO_ARRIVAL`] for the start and for walkers).
    fn expand<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        feet: IVec3,
        arrival: usize,
        table: &mut NodeTable,
        relax: impl FnMut(&mut u32, Self::Target, u32),
    );
}

/// The walking rules, through a reused move buffer: their generator has many exits, and a
/// plain loop over its output keeps the per-move work in one place.
struct Walking {
    agent: Agent,
    costs: MoveCosts,
    buffer: MoveBuffer,
    /// Whether moves may leave the key range (see [`may_leave_keys`]).
    check_keys: bool,
}

impl Successors for Walking {
    type Target = IVec3;
    const FLAT: bool = false;

    #[inline]
    fn expand<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        feet: IVec3,
        _arrival: usize,
        table: &mut NodeTable,
        mut relax: impl FnMut(&mut u32, IVec3, u32),
    ) {
        WalkingMoves.collect(world, &self.agent, &self.costs, feet, &mut self.buffer);
        for step in self.buffer.as_slice() {
            if !self.check_keys || in_key_range(step.feet) {
                relax(table.page_slot(step.feet), step.feet, step.cost);
            }
        }
    }
}

/// The flying and swimming rules, straight from their bitmask of legal moves, less the moves
/// the parent dominates (see [`dominated_moves`]): the targets in the store of `feet` (the
/// node table's flat array, or the page of `feet`) are found at fixed slot offsets, the others
/// through [`NodeTable::slot`].
struct Free {
    agent: Agent,
    /// The cost of each move before the world's extra cost, padded to 32 entries so that a
    /// move number masked to 5 bits needs no bounds check.
    steps: [u32; 32],
    /// The moves the parent may dominate, per arrival code.
    dominated: [u32; 27],
    /// [`parent_masks_1`] of `dominated`, for a body one cell tall.
    parent_masks: [[u32; 32]; 27],
    /// Whether moves may leave the key range (see [`may_leave_keys`]).
    check_keys: bool,
}

/// [`FREE_DIRECTIONS`] and [`FREE_ARRIVALS`] padded to 32 entries, so that a move number
/// masked to 5 bits needs no bounds check.
const DIRECTIONS: [IVec3; 32] = {
    let mut out = [IVec3::ZERO; 32];
    let mut i = 0;
    while i < 26 {
        out[i] = FREE_DIRECTIONS[i];
        i += 1;
    }
    out
};
const ARRIVALS: [u8; 32] = {
    let mut out = [NO_ARRIVAL as u8; 32];
    let mut i = 0;
    while i < 26 {
        out[i] = FREE_ARRIVALS[i];
        i += 1;
    }
    out
};

/// A free mover's target: the move [`FREE_DIRECTIONS`]`[direction]` from `from`.
#[derive(Clone, Copy)]
struct FreeTarget {
    from: IVec3,
    direction: usize,
}

impl Target for FreeTarget {
    #[inline]
    fn feet(self) -> IVec3 {
        self.from + DIRECTIONS[self.direction & 31]
    }

    #[inline]
    fn arrival(self) -> usize {
        usize::from(ARRIVALS[self.direction & 31])
    }
}

impl Successors for Free {
    type Target = FreeTarget;
    const FLAT: bool = true;

    #[inline]
    fn expand<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        feet: IVec3,
        arrival: usize,
        table: &mut NodeTable,
        mut relax: impl FnMut(&mut u32, FreeTarget, u32),
    ) {
        let legal = if self.agent.height == 1 {
            // The occupancy mask of a one-tall body has 27 bits.
            let occupancy = occupancy_mask(world, &self.agent, feet) as u32;
            free_moves_1(occupancy, &self.parent_masks[arrival])
        } else {
            let (legal, occupancy) = free_moves_and_occupancy(world, &self.agent, feet);
            undominated(
                legal,
                occupancy,
                self.agent.height,
                arrival,
                self.dominated[arrival],
            )
        };
        let near = table.neighbourhood(feet);
        // The moves within the store first, then the others: which kind a move is depends on
        // where `feet` lies in its page, and a branch on it per move is mispredicted about
        // twice per expansion; a branch per run of moves is not.
        let mut pending = legal & near.inside;
        let mut leaving = legal & !near.inside;
        let mut in_page = true;
        loop {
            if pending == 0 {
                if leaving == 0 {
                    break;
                }
                (pending, leaving, in_page) = (leaving, 0, false);
            }
            let i = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let target = FreeTarget {
                from: feet,
                direction: i,
            };
            let slot = if in_page {
                table.neighbour_slot(&near, i)
            } else {
                let to = target.feet();
                if self.check_keys && !in_key_range(to) {
                    continue;
                }
                table.slot(to)
            };
            relax(
                slot,
                target,
                free_target_cost(world, self.steps[i & 31], target.feet()),
            );
        }
    }
}

/// A reusable A* search for one agent and its costs.
///
/// Keep one per thread and call it for every query: its node table, open set and move
/// buffer keep their memory between searches. Fliers and swimmers in a bounded world of at
/// most 4 million cells keep their nodes in a flat table of 4 bytes per cell (16 MiB at
/// most), kept for later searches; other searches use pages that grow with the search.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, Pathfinder, SearchOptions, SearchStatus};
///
/// // A 8x4x3 room with a floor and a one-block step in the middle.
/// let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 3))?;
/// world.fill(IVec3::new(0, 0, 0), IVec3::new(7, 0, 2), Block::Solid)?;
/// world.fill(IVec3::new(4, 1, 0), IVec3::new(7, 1, 2), Block::Solid)?;
///
/// let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default())?;
/// let result = pathfinder.find_path(&world, IVec3::new(0, 1, 1), IVec3::new(7, 2, 1), &SearchOptions::default())?;
/// assert_eq!(result.status, SearchStatus::Found);
/// assert_eq!(result.cost, Some(7 * 10 + 10)); // seven steps east, one block climbed
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Pathfinder {
    agent: Agent,
    costs: MoveCosts,
    /// [`dominated_moves`] of the costs, for fliers and swimmers.
    dominated: [u32; 27],
    /// [`parent_masks_1`] of `dominated`.
    parent_masks: [[u32; 32]; 27],
    nodes: Vec<Node>,
    table: NodeTable,
    open: OpenSet,
}

impl Pathfinder {
    /// A pathfinder for `agent` moving at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are out of range (see
    /// [`Agent::validate`] and [`MoveCosts::validate`]).
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        agent.validate()?;
        costs.validate()?;
        let dominated = dominated_moves(&costs);
        Ok(Self {
            agent,
            costs,
            dominated,
            parent_masks: parent_masks_1(&dominated),
            nodes: Vec::new(),
            table: NodeTable::default(),
            open: OpenSet::default(),
        })
    }

    /// The agent.
    #[must_use]
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The move costs.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.costs
    }

    /// Searches for `agent` from now on (a flier after a walker, say), keeping the memory.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent is out of range (see [`Agent::validate`]); the
    /// pathfinder keeps its agent then.
    pub fn set_agent(&mut self, agent: Agent) -> Result<()> {
        agent.validate()?;
        self.agent = agent;
        Ok(())
    }

    /// The feet positions the last search expanded, in no particular order: what it explored
    /// (for pictures and statistics).
    pub fn explored(&self) -> impl Iterator<Item = IVec3> + '_ {
        self.nodes.iter().filter(|n| n.closed()).map(|n| n.feet())
    }

    /// Finds a route from the feet position `start` to the feet position `goal`.
    ///
    /// # Errors
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] (with the reason) when either is not
    /// a valid feet position, [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`] for empty
    /// budgets, [`Error::Unbounded`] for an unbounded world searched without a budget.
    pub fn find_path<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.search(world, start, &BlockGoal(goal), options)
    }

    /// Searches from the feet position `start` until `goal` is reached, a budget runs out,
    /// or every reachable position has been explored.
    ///
    /// # Errors
    /// As [`Pathfinder::find_path`]; the goal is checked only when it names an exact target.
    pub fn search<W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        self.agent
            .check_position(world, start)
            .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        if let Some(target) = goal.exact_target() {
            self.agent
                .check_position(world, target)
                .map_err(|reason| Error::InvalidGoal {
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
        if world.bounds().is_none() && options.max_nodes.is_none() && options.max_time.is_none() {
            return Err(Error::Unbounded);
        }
        // One search loop per movement mode, each with its rules inlined.
        let check_keys = may_leave_keys(world);
        Ok(if self.agent.movement.is_free() {
            let free = Free {
                agent: self.agent,
                steps: {
                    let steps = free_step_costs(&self.costs);
                    std::array::from_fn(|i| steps.get(i).copied().unwrap_or(0))
                },
                dominated: self.dominated,
                parent_masks: self.parent_masks,
                check_keys,
            };
            self.run(world, start, goal, options, started, free)
        } else {
            let walking = Walking {
                agent: self.agent,
                costs: self.costs,
                buffer: MoveBuffer::default(),
                check_keys,
            };
            self.run(world, start, goal, options, started, walking)
        })
    }

    /// The search proper, for checked input.
    fn run<W: VoxelWorld + ?Sized, G: Goal + ?Sized, S: Successors>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
        started: Instant,
        mut moves: S,
    ) -> SearchResult {
        let estimator = options.heuristic.estimator(&self.agent, &self.costs);
        let budget = Budget::new(options, started);
        let flat = if S::FLAT { world.bounds() } else { None };
        self.table.start(flat, self.nodes.len());
        self.nodes.clear();

        let mut stats = SearchStats::default();
        let start_h = goal.estimate(start, &estimator);
        self.nodes.push(Node {
            key: pack(start),
            g: 0,
            link: link(NO_PARENT, NO_ARRIVAL),
        });
        *self.table.slot(start) = self.table.base();
        self.open.reset(start_h);
        self.open.push(start_h, 0, 0);
        stats.generated = 1;
        let (mut best, mut best_h, mut best_g) = (0u32, start_h, 0u64);

        let Self {
            nodes, table, open, ..
        } = self;
        let base = table.base();
        let mut found = None;
        let mut stopped = false;
        while let Some((_, node)) = open.pop() {
            let current = nodes[node as usize];
            if current.closed() {
                continue;
            }
            let feet = current.feet();
            if goal.is_reached(feet) {
                found = Some(node);
                break;
            }
            if budget.exhausted(stats.expanded) {
                stopped = true;
                break;
            }
            nodes[node as usize].link |= CLOSED;
            stats.expanded += 1;

            let mut full = false;
            moves.expand(
                world,
                feet,
                current.arrival(),
                table,
                |slot, target, step| {
                    let g = current.g + u64::from(step);
                    // The slot names a node of this search when it holds `base + index` for
                    // an existing node (see `NodeTable::base`).
                    let known_index = slot.wrapping_sub(base);
                    let index = if known_index as usize >= nodes.len() {
                        if nodes.len() >= MAX_NODES {
                            full = true;
                            return;
                        }
                        let index = nodes.len() as u32;
                        *slot = base + index;
                        nodes.push(Node {
                            key: pack(target.feet()),
                            g,
                            link: link(node, target.arrival()),
                        });
                        index
                    } else {
                        let index = known_index;
                        let known = &mut nodes[index as usize];
                        if g >= known.g {
                            return;
                        }
                        // A cheaper route: the node is open again, with a new parent.
                        known.g = g;
                        known.link = link(node, target.arrival());
                        index
                    };
                    let h = goal.estimate(target.feet(), &estimator);
                    open.push(g + h, g, index);
                    stats.generated += 1;
                    if (h, g) < (best_h, best_g) {
                        (best, best_h, best_g) = (index, h, g);
                    }
                },
            );
            if full {
                stopped = true;
                break;
            }
        }

        match (found, stopped) {
            (Some(node), _) => self.finish(SearchStatus::Found, node, stats, started),
            (None, true) => self.finish(SearchStatus::Partial, best, stats, started),
            (None, false) => {
                stats.elapsed = started.elapsed();
                SearchResult::unreachable(stats)
            }
        }
    }

    fn finish(
        &self,
        status: SearchStatus,
        end: u32,
        mut stats: SearchStats,
        started: Instant,
    ) -> SearchResult {
        let mut path = Vec::new();
        let mut node = end;
        while node != NO_PARENT {
            let n = self.nodes[node as usize];
            path.push(n.feet());
            node = n.parent();
        }
        path.reverse();
        stats.elapsed = started.elapsed();
        SearchResult {
            status,
            path,
            cost: Some(self.nodes[end as usize].g),
            stats,
        }
    }
}
