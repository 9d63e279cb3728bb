//! A* over feet positions.

use std::time::Instant;

use glam::IVec3;

use super::cells::{
    ARRIVAL_MASK, CLOSED as CELL_CLOSED, CellTable, Narrow, Neighbourhood, Record, Wide,
};
use super::goal::{BlockGoal, Goal};
use super::heuristic::Estimator;
use super::nodes::{MAX_SEARCH_NODES, NodeTable};
use super::open::OpenSet;
use super::{Budget, SearchOptions, SearchResult, SearchStats, SearchStatus};
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::{
    FREE_ARRIVALS, FREE_DIRECTIONS, NO_ARRIVAL, arrival_offset, dominated_moves, free_moves_1,
    free_moves_and_occupancy, free_step_costs, free_target_cost, occupancy_mask, parent_masks_1,
    undominated,
};
use crate::moves::{Expansion, MoveBuffer, WalkingMoves};
use crate::world::VoxelWorld;
use crate::world::key::{in_key_range, pack, unpack};

/// Bit of [`Node::link`] set while the node is expanded (closed); a cheaper route found later
/// clears it (reopens the node).
const CLOSED: u32 = 1 << 31;
/// The parent's index in [`Node::link`].
const PARENT_MASK: u32 = CLOSED - 1;
/// The parent link of the start node.
const NO_PARENT: u32 = PARENT_MASK;
/// The most nodes one walker's search may create: 67 million, 1.3 GB of node records alone.
/// A search that reaches it stops with the best partial route.
const MAX_NODES: usize = 1 << 26;
const _: () = assert!(MAX_NODES <= MAX_SEARCH_NODES && MAX_NODES < NO_PARENT as usize);
/// The most nodes one flier's or swimmer's search may create, as many as a walker's.
const MAX_FREE_NODES: u64 = MAX_NODES as u64;

/// One position a walker's search reached: 20 bytes, so that a search of millions of nodes
/// stays small. No heuristic value is stored: it is computed when the node is pushed, and
/// the open set holds `f`. The open set pops true minima and a node's estimate does not
/// change, so among the entries of one node the one of its cheapest route pops first: an
/// entry popped for a closed node is stale, and no other check is needed. (Fliers and
/// swimmers keep their nodes in a [`CellTable`] instead.)
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(4))]
struct Node {
    /// The feet position, [`pack`]ed: every node is in the key range.
    key: u64,
    /// The cost of the best route found to it.
    g: u64,
    /// The parent's index ([`NO_PARENT`] for the start) and [`CLOSED`].
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
}

/// Whether a search in `world` may meet positions outside the key range: worlds whose
/// bounds lie inside it cannot produce unpackable positions.
fn may_leave_keys<W: VoxelWorld + ?Sized>(world: &W) -> bool {
    world
        .bounds()
        .is_none_or(|b| !(in_key_range(b.min) && in_key_range(b.max - IVec3::ONE)))
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

impl Walking {
    /// The moves from `feet`, each handed to `relax` with its target's slot in `table`, the
    /// target and the cost of the move; targets outside the key range are left out.
    #[inline]
    fn expand<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        feet: IVec3,
        table: &mut NodeTable,
        mut relax: impl FnMut(&mut u32, IVec3, u32),
    ) {
        WalkingMoves.collect(world, &self.agent, &self.costs, feet, &mut self.buffer);
        for step in self.buffer.as_slice() {
            if !self.check_keys || in_key_range(step.feet) {
                relax(table.slot(step.feet), step.feet, step.cost);
            }
        }
    }
}

/// The flying and swimming rules: the legal moves from a position as a bitmask, less the
/// moves its parent dominates (see [`dominated_moves`]).
struct Free {
    agent: Agent,
    /// The cost of each move before the world's extra cost, padded to 32 entries so that a
    /// move number masked to 5 bits needs no bounds check.
    steps: [u32; 32],
    /// The moves the parent may dominate, per arrival code.
    dominated: [u32; 27],
    /// [`parent_masks_1`] of `dominated`, for a body one cell tall.
    parent_masks: [[u32; 32]; 27],
}

impl Free {
    /// The moves from `feet`, entered from its parent by the step of the arrival code
    /// `arrival` ([`NO_ARRIVAL`] for the start): bit `i` for the move
    /// [`FREE_DIRECTIONS`]`[i]`.
    #[inline]
    fn moves<W: VoxelWorld + ?Sized>(&self, world: &W, feet: IVec3, arrival: usize) -> u32 {
        if self.agent.height == 1 {
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
        }
    }
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

/// Where a [`Pathfinder`]'s last search kept its nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Records {
    /// A walker's: `Pathfinder::nodes`.
    Walking,
    /// A flier's or swimmer's, in 8-byte records.
    Narrow,
    /// A flier's or swimmer's, in 16-byte records.
    Wide,
}

/// A reusable A* search for one agent and its costs.
///
/// Keep one per thread and call it for every query: its node tables and open set keep their
/// memory between searches, so memory follows the largest search, not the world. A walker's
/// nodes are records in a list, found through pages of slots; a flier's or swimmer's are
/// records kept where their positions lie, in pages of 16x16x16 cells (see the
/// `search::cells` module).
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions, SearchStatus};
/// use voxnav::engine::Pathfinder;
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
    /// A walker's nodes, and the slots that find them.
    nodes: Vec<Node>,
    table: NodeTable,
    /// A flier's or swimmer's nodes, in 8-byte records, and in 16-byte ones for a search
    /// whose costs pass `u32`.
    narrow: CellTable<Narrow>,
    wide: CellTable<Wide>,
    /// Where the last search kept its nodes.
    last: Records,
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
            narrow: CellTable::default(),
            wide: CellTable::default(),
            last: Records::Walking,
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
        let narrow = (self.last == Records::Narrow).then(|| self.narrow.closed());
        let wide = (self.last == Records::Wide).then(|| self.wide.closed());
        let walking = (self.last == Records::Walking)
            .then(|| self.nodes.iter().filter(|n| n.closed()).map(|n| n.feet()));
        let (narrow, wide) = (narrow.into_iter().flatten(), wide.into_iter().flatten());
        narrow.chain(wide).chain(walking.into_iter().flatten())
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
        options.check_budgets(world.bounds().is_some())?;
        // One search loop per movement mode, each with its rules inlined.
        if !self.agent.movement.is_free() {
            self.last = Records::Walking;
            let walking = Walking {
                agent: self.agent,
                costs: self.costs,
                buffer: MoveBuffer::default(),
                check_keys: may_leave_keys(world),
            };
            return Ok(self.run_walking(world, start, goal, options, started, walking));
        }
        let free = Free {
            agent: self.agent,
            steps: {
                let steps = free_step_costs(&self.costs);
                std::array::from_fn(|i| steps.get(i).copied().unwrap_or(0))
            },
            dominated: self.dominated,
            parent_masks: self.parent_masks,
        };
        let estimator = options.heuristic.estimator(&self.agent, &self.costs);
        let budget = Budget::new(options, started);
        self.last = Records::Narrow;
        let narrow = run_free(
            &mut self.narrow,
            &mut self.open,
            world,
            start,
            goal,
            &estimator,
            &budget,
            started,
            &free,
        );
        Ok(match narrow {
            Some(result) => result,
            None => self.run_wide(world, start, goal, &estimator, &budget, started, &free),
        })
    }

    /// [`run_free`] with 16-byte records, for a search whose costs passed `u32`.
    #[expect(
        clippy::too_many_arguments,
        reason = "the arguments of run_free, passed on"
    )]
    fn run_wide<W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        estimator: &Estimator,
        budget: &Budget,
        started: Instant,
        free: &Free,
    ) -> SearchResult {
        self.last = Records::Wide;
        run_free(
            &mut self.wide,
            &mut self.open,
            world,
            start,
            goal,
            estimator,
            budget,
            started,
            free,
        )
        .expect("16-byte records hold every cost, and a checked start is in the key range")
    }

    /// The search proper for a walker, for checked input.
    fn run_walking<W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
        started: Instant,
        mut moves: Walking,
    ) -> SearchResult {
        let estimator = options.heuristic.estimator(&self.agent, &self.costs);
        let budget = Budget::new(options, started);
        self.table.start(self.nodes.len());
        self.nodes.clear();

        let mut stats = SearchStats::default();
        let start_h = goal.estimate(start, &estimator);
        self.nodes.push(Node {
            key: pack(start),
            g: 0,
            link: NO_PARENT,
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
            moves.expand(world, feet, table, |slot, target, step| {
                let g = current.g + u64::from(step);
                // The slot names a node of this search when it holds `base + index` for an
                // existing node (see `NodeTable::base`).
                let known_index = slot.wrapping_sub(base);
                let index = if known_index as usize >= nodes.len() {
                    if nodes.len() >= MAX_NODES {
                        full = true;
                        return;
                    }
                    let index = nodes.len() as u32;
                    *slot = base + index;
                    nodes.push(Node {
                        key: pack(target),
                        g,
                        link: node,
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
                    known.link = node;
                    index
                };
                let h = goal.estimate(target, &estimator);
                open.push(g + h, g, index);
                stats.generated += 1;
                if (h, g) < (best_h, best_g) {
                    (best, best_h, best_g) = (index, h, g);
                }
            });
            if full {
                stopped = true;
                break;
            }
        }

        let nodes = &self.nodes;
        finish(found, stopped, best, stats, started, |end| {
            let mut path = Vec::new();
            let mut node = end;
            while node != NO_PARENT {
                let n = nodes[node as usize];
                path.push(n.feet());
                node = n.parent();
            }
            (path, nodes[end as usize].g)
        })
    }
}

/// The search proper for a flier or swimmer, for checked input: the records of its nodes
/// are the cells of `cells`, and a node's number names its cell. `None` when a route's cost
/// passes [`Record::MAX_G`]: the search must be run again with wider records.
#[expect(
    clippy::too_many_arguments,
    reason = "the parts of a Pathfinder one search borrows, apart so that the records' width can vary"
)]
fn run_free<R: Record, W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
    cells: &mut CellTable<R>,
    open: &mut OpenSet,
    world: &W,
    start: IVec3,
    goal: &G,
    estimator: &Estimator,
    budget: &Budget,
    started: Instant,
    moves: &Free,
) -> Option<SearchResult> {
    cells.start(world.bounds());
    let open_tag = cells.tag(0);

    let mut stats = SearchStats::default();
    let start_h = goal.estimate(start, estimator);
    // The start was checked to be in the key range, so it has a node.
    let start_node = cells.node(start)?;
    *cells.cell(start_node) = R::new(0, cells.tag(NO_ARRIVAL as u32));
    open.reset(start_h);
    open.push(start_h, 0, start_node);
    stats.generated = 1;
    let mut made = 1u64;
    let (mut best, mut best_h, mut best_g) = (start_node, start_h, 0u64);

    let mut found = None;
    let mut stopped = false;
    'search: while let Some((_, node)) = open.pop() {
        let current = *cells.cell(node);
        if current.tag() & CELL_CLOSED != 0 {
            continue;
        }
        let feet = cells.position(node);
        if goal.is_reached(feet) {
            found = Some(node);
            break;
        }
        if budget.exhausted(stats.expanded) || cells.nearly_full() {
            stopped = true;
            break;
        }
        cells.cell(node).close();
        stats.expanded += 1;

        let legal = moves.moves(world, feet, (current.tag() & ARRIVAL_MASK) as usize);
        let near = Neighbourhood::new(node, feet);
        // The moves within the page first, then the others: which kind a move is depends on
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
            let to = if in_page {
                near.neighbour(i)
            } else {
                match cells.neighbour_node(node, feet, feet + DIRECTIONS[i & 31]) {
                    Some(to) => to,
                    None => continue,
                }
            };
            // Only worlds with extra costs and a node that gets a new cost need the target's
            // position: the compiler computes it for those alone.
            let target = feet + DIRECTIONS[i & 31];
            let g = current.g() + u64::from(free_target_cost(world, moves.steps[i & 31], target));
            let tag = open_tag | u32::from(ARRIVALS[i & 31]);
            let record = cells.cell(to);
            if record.tag() & !(CELL_CLOSED | ARRIVAL_MASK) != open_tag {
                if made >= MAX_FREE_NODES {
                    stopped = true;
                    break 'search;
                }
                made += 1;
            } else if g >= record.g() {
                continue;
            }
            // A new node, or a cheaper route to a known one (open again, with a new parent).
            if g > R::MAX_G {
                return None;
            }
            *record = R::new(g, tag);
            let h = goal.estimate(target, estimator);
            open.push(g + h, g, to);
            stats.generated += 1;
            if (h, g) < (best_h, best_g) {
                (best, best_h, best_g) = (to, h, g);
            }
        }
    }

    // Back from the end, one step at a time: a node's parent is the cell its arrival code
    // points back to, and every parent is a node of this search with a lower cost.
    Some(finish(found, stopped, best, stats, started, |end| {
        let mut path = Vec::new();
        let mut node = Some(end);
        while let Some(at) = node {
            let feet = cells.position(at);
            path.push(feet);
            let arrival = (cells.cell(at).tag() & ARRIVAL_MASK) as usize;
            node = if arrival == NO_ARRIVAL {
                None
            } else {
                cells.find(feet - arrival_offset(arrival))
            };
        }
        (path, cells.cell(end).g())
    }))
}

/// The result of a search that reached the goal at node `found`, or stopped early
/// (`stopped`: a budget or the node limit) with `best` the node closest to the goal by the
/// heuristic, or neither (every reachable position explored). `route` walks back from the
/// end node: the positions from it to the start, and its cost.
fn finish(
    found: Option<u32>,
    stopped: bool,
    best: u32,
    mut stats: SearchStats,
    started: Instant,
    route: impl FnOnce(u32) -> (Vec<IVec3>, u64),
) -> SearchResult {
    let end = match (found, stopped) {
        (Some(node), _) => Some((SearchStatus::Found, node)),
        (None, true) => Some((SearchStatus::Partial, best)),
        (None, false) => None,
    };
    let Some((status, end)) = end else {
        stats.elapsed = started.elapsed();
        return SearchResult::unreachable(stats);
    };
    let (mut path, cost) = route(end);
    path.reverse();
    stats.elapsed = started.elapsed();
    SearchResult {
        status,
        path,
        cost: Some(cost),
        stats,
    }
}
