//! Routing many agents at once: [`BatchRouter`].
//!
//! The world is shared read-only by every worker (`W: VoxelWorld + Sync`); each worker takes
//! a [`Pathfinder`] from the router's pool and reuses it for every query it answers, so a
//! batch allocates nothing once the pool is warm. With a [`ReachIndex`](crate::engine::ReachIndex),
//! queries whose goal lies in another region than their start are answered without
//! searching; with a compiled walk graph the others are searched over it (both kept through
//! [`IndexedRouter`]).
//!
//! [`BatchRouter::route_many`] runs on rayon's thread pool (Cargo feature `rayon`, on by
//! default); [`BatchRouter::route_many_sequential`] is always there and gives the same
//! results. Both consult the index, so the world must tell which world it is and when it
//! changed ([`VersionedWorld`]); [`BatchRouter::search_many`] and
//! [`BatchRouter::search_many_sequential`] search every query and take any
//! [`VoxelWorld`].
//!
//! ```
//! use voxnav::IVec3;
//! use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchStatus};
//! use voxnav::engine::IndexedRouter;
//! use voxnav::batch::{BatchRouter, RouteQuery};
//!
//! let mut world = ChunkedWorld::with_size(IVec3::new(16, 6, 16))?;
//! world.fill(IVec3::new(0, 0, 0), IVec3::new(15, 0, 15), Block::Solid)?;
//! // A sealed room: walls around (12..=14, 12..=14) and a roof.
//! world.fill(IVec3::new(11, 1, 11), IVec3::new(15, 3, 15), Block::Solid)?;
//! world.fill(IVec3::new(12, 1, 12), IVec3::new(14, 2, 14), Block::Air)?;
//!
//! let mut router = BatchRouter::new(Agent::default(), MoveCosts::default())?;
//! router.build_index(&world)?;
//! let queries = [
//!     RouteQuery::block(IVec3::new(0, 1, 0), IVec3::new(9, 1, 9)),
//!     RouteQuery::block(IVec3::new(0, 1, 0), IVec3::new(13, 1, 13)), // inside the room
//! ];
//! let results = router.route_many_sequential(&world, &queries);
//! assert_eq!(results[0].as_ref().map(|r| r.status).ok(), Some(SearchStatus::Found));
//! let sealed = results[1].as_ref().map_err(|e| e.to_string())?;
//! assert_eq!(sealed.status, SearchStatus::Unreachable);
//! assert_eq!(sealed.stats.expanded, 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::{Mutex, PoisonError};

use glam::IVec3;

use crate::error::Result;
use crate::graph::GraphSearch;
use crate::hier::AbstractSearch;
use crate::moves::agent::{Agent, MoveCosts};
use crate::reach::{IndexSlot, IndexedRouter};
use crate::search::heuristic::Heuristic;
use crate::search::jps3d::{JumpSearch, JumpTables, MAX_TABLE_CELLS};
use crate::search::{BlockGoal, Goal, Pathfinder, SearchOptions, SearchResult};
use crate::world::{Changes, Revision, VersionedWorld, VoxelWorld};

/// One query of a batch: a start feet position, a goal, and optionally its own agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RouteQuery<G = BlockGoal> {
    /// The start feet position.
    pub start: IVec3,
    /// Where the agent wants to go.
    pub goal: G,
    /// The agent of this query (a flier in a batch of walkers, say); `None` for the router's
    /// agent. Defaults to `None`.
    pub agent: Option<Agent>,
}

impl<G> RouteQuery<G> {
    /// A query from `start` to `goal`.
    #[must_use]
    pub const fn new(start: IVec3, goal: G) -> Self {
        Self {
            start,
            goal,
            agent: None,
        }
    }

    /// Sets [`RouteQuery::agent`]: this query is routed for `agent`, at the router's costs
    /// and options, and uses the router's index only if it was built for `agent`.
    #[must_use]
    pub const fn with_agent(mut self, agent: Agent) -> Self {
        self.agent = Some(agent);
        self
    }
}

impl RouteQuery<BlockGoal> {
    /// A query from the feet position `start` to the feet position `goal`.
    #[must_use]
    pub const fn block(start: IVec3, goal: IVec3) -> Self {
        Self::new(start, BlockGoal(goal))
    }
}

/// Routes batches of queries for one agent, on many threads or one.
///
/// Holds the search options, an optional [`ReachIndex`](crate::engine::ReachIndex) and compiled walk
/// graph ([`IndexedRouter`]) and a pool of pathfinders that workers reuse across queries and
/// across batches. A batch never rebuilds a stale index or graph by itself, and ignores
/// them (every query is searched on the world, so the answers stay right, only slower):
/// call [`IndexedRouter::refresh_index`] or [`IndexedRouter::apply_changes`] between
/// batches after changing blocks.
///
/// Its `Debug` output is a summary of its index, graph and pool, not their arrays.
pub struct BatchRouter {
    template: Worker,
    options: SearchOptions,
    index: IndexSlot,
    /// The face jumps of the router's flier or swimmer precomputed for one state of one world
    /// (see [`JumpTables`]): read by jump point search on that world at that revision only
    /// (the tables remember it, [`JumpTables::check_current`]).
    tables: Option<JumpTables>,
    /// The most cells of a world [`BatchRouter::build_jump_tables`] builds tables for.
    table_cells: u64,
    pool: Mutex<Vec<Worker>>,
}

/// The most cells of a world the router builds jump tables for by default (50 MB of tables,
/// 24 bytes a cell): a cap on memory the router spends unasked, which
/// [`Router::with_jump_table_cells`](crate::Router::with_jump_table_cells) raises (its docs
/// give what larger tables gain per query). On `Simple` (1.5 million cells, 35.5 MB) a query
/// with them took 5.2-5.3 us against 19.4-20.0 us without (`cargo bench --bench jps3d`, a
/// quiet 2-core machine, 2026-11-29).
pub const ROUTER_TABLE_CELLS: u64 = 1 << 21;

/// What one worker searches with: on the world, over the graph, and by jump points (for a
/// flier or swimmer the jump search accepts).
#[derive(Clone)]
struct Worker {
    pathfinder: Pathfinder,
    graph_search: GraphSearch,
    jumper: Option<JumpSearch>,
    /// Long routes through the index slot's abstraction, when it keeps one.
    long: AbstractSearch,
}

impl std::fmt::Debug for BatchRouter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pooled = self.pool.lock().map_or(0, |pool| pool.len());
        f.debug_struct("BatchRouter")
            .field("agent", self.template.pathfinder.agent())
            .field("options", &self.options)
            .field("slot", &self.index)
            .field("pooled_workers", &pooled)
            .finish_non_exhaustive()
    }
}

impl BatchRouter {
    /// A router for `agent` moving at `costs`, with default [`SearchOptions`] and no index.
    ///
    /// # Errors
    /// As [`Pathfinder::new`].
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        Ok(Self {
            template: Worker {
                pathfinder: Pathfinder::new(agent, costs)?,
                graph_search: GraphSearch::new(costs)?,
                // Refused (walkers, bodies over its height, costs it cannot honour): the
                // flier A* answers instead.
                jumper: JumpSearch::new(agent, costs).ok(),
                long: AbstractSearch::new(),
            },
            options: SearchOptions::default(),
            index: IndexSlot::new(agent),
            tables: None,
            table_cells: ROUTER_TABLE_CELLS,
            pool: Mutex::new(Vec::new()),
        })
    }

    /// Sets the options every query of a batch uses. Defaults to [`SearchOptions::default`].
    #[must_use]
    pub fn with_options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// The agent.
    #[must_use]
    pub fn agent(&self) -> &Agent {
        self.template.pathfinder.agent()
    }

    /// Answers `queries` on rayon's current thread pool and returns the results in the
    /// queries' order, each as [`Pathfinder::search`] (or the index, or jump point search
    /// for a flier's single-block goal: same cost) would answer it alone.
    /// Run it inside `rayon::ThreadPool::install` to choose the number of threads.
    #[cfg(feature = "rayon")]
    pub fn route_many<W, G>(
        &self,
        world: &W,
        queries: &[RouteQuery<G>],
    ) -> Vec<Result<SearchResult>>
    where
        W: VersionedWorld + Sync + ?Sized,
        G: Goal + Sync,
    {
        self.answer_parallel(queries, |worker, query| {
            self.route_one(worker, world, query)
        })
    }

    /// Answers `queries` one after the other on the calling thread; the same results as
    /// [`BatchRouter::route_many`].
    pub fn route_many_sequential<W, G>(
        &self,
        world: &W,
        queries: &[RouteQuery<G>],
    ) -> Vec<Result<SearchResult>>
    where
        W: VersionedWorld + ?Sized,
        G: Goal,
    {
        self.answer_sequential(queries, |worker, query| {
            self.route_one(worker, world, query)
        })
    }

    /// [`BatchRouter::route_many`] for any world, without the index: every query is
    /// searched.
    #[cfg(feature = "rayon")]
    pub fn search_many<W, G>(
        &self,
        world: &W,
        queries: &[RouteQuery<G>],
    ) -> Vec<Result<SearchResult>>
    where
        W: VoxelWorld + Sync + ?Sized,
        G: Goal + Sync,
    {
        self.answer_parallel(queries, |worker, query| {
            self.search_one(worker, world, query)
        })
    }

    /// [`BatchRouter::route_many_sequential`] for any world, without the index: every query
    /// is searched.
    pub fn search_many_sequential<W, G>(
        &self,
        world: &W,
        queries: &[RouteQuery<G>],
    ) -> Vec<Result<SearchResult>>
    where
        W: VoxelWorld + ?Sized,
        G: Goal,
    {
        self.answer_sequential(queries, |worker, query| {
            self.search_one(worker, world, query)
        })
    }

    /// One query of [`BatchRouter::route_many`]: the graph and the index when they describe
    /// `world`, a search otherwise.
    fn route_one<W, G>(
        &self,
        worker: &mut Worker,
        world: &W,
        query: &RouteQuery<G>,
    ) -> Result<SearchResult>
    where
        W: VersionedWorld + ?Sized,
        G: Goal,
    {
        let routers_agent = query.agent.is_none_or(|agent| agent == *self.agent());
        self.answer_on(
            worker,
            world,
            query.start,
            &query.goal,
            &self.options,
            routers_agent,
        )
    }

    /// One query on `worker`: jump point search for a single-block goal under the default
    /// heuristic when the worker has one for the router's agent (exact: the flier A*'s costs
    /// with fewer instructions, see [`JumpSearch`]); otherwise the index, the abstraction for
    /// long routes and the graph when they describe `world` ([`IndexSlot::search_long`]), a
    /// search otherwise.
    fn answer_on<W, G>(
        &self,
        worker: &mut Worker,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
        routers_agent: bool,
    ) -> Result<SearchResult>
    where
        W: VersionedWorld + ?Sized,
        G: Goal + ?Sized,
    {
        if routers_agent
            && options.heuristic == Heuristic::default()
            && let (Some(jumper), Some(target)) = (worker.jumper.as_mut(), goal.block_target())
        {
            return match self.tables_for(world) {
                Some(tables) => jumper.find_path_with_tables(tables, world, start, target, options),
                None => jumper.find_path(world, start, target, options),
            };
        }
        self.index.search_long(
            &mut worker.long,
            &mut worker.pathfinder,
            &mut worker.graph_search,
            world,
            start,
            goal,
            options,
        )
    }

    /// The jump tables, when they describe `world` as it is now.
    fn tables_for<W: VersionedWorld + ?Sized>(&self, world: &W) -> Option<&JumpTables> {
        self.tables
            .as_ref()
            .filter(|tables| tables.check_current(world).is_ok())
    }

    /// Precomputes the face jumps of the router's flier or swimmer in `world` as it is now
    /// ([`JumpTables::build`]), for the jump point search of later queries on `world` at this
    /// revision. Returns whether it did: not for agents jump point search refuses, nor for
    /// worlds without a revision or bounds, nor for worlds of more cells than the cap
    /// ([`BatchRouter::set_jump_table_cells`], [`ROUTER_TABLE_CELLS`] by default; their
    /// searches jump without tables).
    ///
    /// # Errors
    /// As [`JumpTables::build`].
    pub(crate) fn build_jump_tables<W: VoxelWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        self.tables = None;
        // A world that cannot tell its version could not tell the tables stale.
        let (Some(_), Some(_), Some(bounds)) = (
            self.template.jumper.as_ref(),
            Revision::of(world),
            world.bounds(),
        ) else {
            return Ok(false);
        };
        if bounds.is_empty() || bounds.volume() > self.table_cells {
            return Ok(false);
        }
        self.tables = Some(JumpTables::build(world, *self.agent())?);
        Ok(true)
    }

    /// Sets the most cells of a world [`BatchRouter::build_jump_tables`] builds tables for,
    /// at most [`MAX_TABLE_CELLS`] (a larger value counts as that); 0 builds none.
    pub(crate) fn set_jump_table_cells(&mut self, cells: u64) {
        self.table_cells = cells.min(MAX_TABLE_CELLS);
    }

    /// Brings the jump tables up to date after `changes` in `world`, locally
    /// ([`JumpTables::apply_changes`]); drops them when they cannot follow (changes of
    /// another world or with some missing, chunk columns loaded or unloaded). Returns
    /// whether tables are kept.
    pub(crate) fn update_jump_tables<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> bool {
        if let Some(tables) = &mut self.tables
            && tables.apply_changes(world, changes).is_err()
        {
            self.tables = None;
        }
        self.tables.is_some()
    }

    /// Drops the jump tables.
    pub(crate) fn clear_jump_tables(&mut self) {
        self.tables = None;
    }

    /// The bytes the jump tables hold (0 without them).
    pub(crate) fn jump_tables_bytes(&self) -> usize {
        self.tables.as_ref().map_or(0, JumpTables::bytes)
    }

    /// Whether a query for a single block under `options` meets jump point search.
    pub(crate) fn jumps(&self, options: &SearchOptions) -> bool {
        self.template.jumper.is_some() && options.heuristic == Heuristic::default()
    }

    /// One query with its own goal and options, for the router's agent, on a worker from the
    /// pool: the index and the graph when they describe `world`, a search otherwise.
    pub(crate) fn answer_one<W, G>(
        &self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult>
    where
        W: VersionedWorld + ?Sized,
        G: Goal + ?Sized,
    {
        let mut lease = self.lease();
        let worker = lease.worker();
        self.use_agent(worker, None)?;
        self.answer_on(worker, world, start, goal, options, true)
    }

    /// A route from `start` toward `goal` for the router's agent, ending at the edge of the
    /// loaded area when `goal` lies beyond it: [`route_toward`](crate::reach::route_toward)
    /// on a worker from the pool.
    pub(crate) fn toward_one<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<crate::reach::EdgeRoute> {
        let mut lease = self.lease();
        let worker = lease.worker();
        self.use_agent(worker, None)?;
        crate::reach::route_toward(&mut worker.pathfinder, world, start, goal, options)
    }

    /// One query of [`BatchRouter::search_many`]: always a search.
    fn search_one<W, G>(
        &self,
        worker: &mut Worker,
        world: &W,
        query: &RouteQuery<G>,
    ) -> Result<SearchResult>
    where
        W: VoxelWorld + ?Sized,
        G: Goal,
    {
        worker
            .pathfinder
            .search(world, query.start, &query.goal, &self.options)
    }

    #[cfg(feature = "rayon")]
    fn answer_parallel<G, F>(
        &self,
        queries: &[RouteQuery<G>],
        answer: F,
    ) -> Vec<Result<SearchResult>>
    where
        G: Sync,
        F: Fn(&mut Worker, &RouteQuery<G>) -> Result<SearchResult> + Sync,
    {
        use rayon::prelude::*;
        queries
            .par_iter()
            .map_init(
                || self.lease(),
                |lease, query| {
                    let worker = lease.worker();
                    self.use_agent(worker, query.agent)?;
                    answer(worker, query)
                },
            )
            .collect()
    }

    fn answer_sequential<G, F>(
        &self,
        queries: &[RouteQuery<G>],
        answer: F,
    ) -> Vec<Result<SearchResult>>
    where
        F: Fn(&mut Worker, &RouteQuery<G>) -> Result<SearchResult>,
    {
        let mut lease = self.lease();
        queries
            .iter()
            .map(|query| {
                let worker = lease.worker();
                self.use_agent(worker, query.agent)?;
                answer(worker, query)
            })
            .collect()
    }

    /// Sets the worker's pathfinder to `agent` (the router's when `None`).
    /// The index and the graph answer only for the agent they were built for.
    fn use_agent(&self, worker: &mut Worker, agent: Option<Agent>) -> Result<()> {
        let agent = agent.unwrap_or(*self.agent());
        if worker.pathfinder.agent() != &agent {
            worker.pathfinder.set_agent(agent)?;
        }
        Ok(())
    }

    /// A worker from the pool (or a fresh one), returned to the pool when dropped.
    fn lease(&self) -> Lease<'_> {
        let worker = self
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        Lease {
            router: self,
            worker,
        }
    }
}

/// A worker borrowed from a [`BatchRouter`]'s pool.
struct Lease<'a> {
    router: &'a BatchRouter,
    worker: Option<Worker>,
}

impl Lease<'_> {
    fn worker(&mut self) -> &mut Worker {
        self.worker
            .get_or_insert_with(|| self.router.template.clone())
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            self.router
                .pool
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(worker);
        }
    }
}

impl IndexedRouter for BatchRouter {
    fn index_slot(&self) -> &IndexSlot {
        &self.index
    }

    fn index_slot_mut(&mut self) -> &mut IndexSlot {
        &mut self.index
    }
}
