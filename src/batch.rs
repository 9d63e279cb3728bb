//! Routing many agents at once: [`BatchRouter`].
//!
//! The world is shared read-only by every worker (`W: VoxelWorld + Sync`); each worker takes
//! a [`Pathfinder`] from the router's pool and reuses it for every query it answers, so a
//! batch allocates nothing once the pool is warm. With a [`ReachIndex`], queries whose goal
//! lies in another region than their start are answered without searching.
//!
//! [`BatchRouter::route_many`] runs on rayon's thread pool (Cargo feature `rayon`, on by
//! default); [`BatchRouter::route_many_sequential`] is always there and gives the same
//! results.
//!
//! ```
//! use glam::IVec3;
//! use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchStatus};
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
use crate::moves::agent::{Agent, MoveCosts};
use crate::reach::{ReachIndex, check_index_agent, indexed_search};
use crate::search::{BlockGoal, Goal, Pathfinder, SearchOptions, SearchResult};
use crate::world::VersionedWorld;

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
/// Holds the search options, an optional [`ReachIndex`] and a pool of pathfinders that
/// workers reuse across queries and across batches.
#[derive(Debug)]
pub struct BatchRouter {
    template: Pathfinder,
    options: SearchOptions,
    index: Option<ReachIndex>,
    pool: Mutex<Vec<Pathfinder>>,
}

impl BatchRouter {
    /// A router for `agent` moving at `costs`, with default [`SearchOptions`] and no index.
    ///
    /// # Errors
    /// As [`Pathfinder::new`].
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        Ok(Self {
            template: Pathfinder::new(agent, costs)?,
            options: SearchOptions::default(),
            index: None,
            pool: Mutex::new(Vec::new()),
        })
    }

    /// Sets the options every query of a batch uses. Defaults to [`SearchOptions::default`].
    #[must_use]
    pub fn with_options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    /// Uses `index` from now on.
    ///
    /// # Errors
    /// [`crate::Error::InvalidSetting`] when the index was built for another agent.
    pub fn with_index(mut self, index: ReachIndex) -> Result<Self> {
        check_index_agent(&index, self.template.agent())?;
        self.index = Some(index);
        Ok(self)
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// The agent.
    #[must_use]
    pub fn agent(&self) -> &Agent {
        self.template.agent()
    }

    /// The index, if there is one.
    #[must_use]
    pub fn index(&self) -> Option<&ReachIndex> {
        self.index.as_ref()
    }

    /// Drops the index: batches search every query from then on.
    pub fn clear_index(&mut self) {
        self.index = None;
    }

    /// Builds (or rebuilds) the index from `world` and returns it.
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn build_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&ReachIndex> {
        let index = ReachIndex::build(world, self.template.agent())?;
        Ok(self.index.insert(index))
    }

    /// Rebuilds the index if the world changed since it was built; returns whether it rebuilt
    /// (`false` without an index). Call it between batches after changing blocks: a batch
    /// never rebuilds by itself, and ignores a stale index (every query is searched, so the
    /// answers stay right, only slower).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn refresh_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        match &mut self.index {
            Some(index) => index.refresh(world),
            None => Ok(false),
        }
    }

    /// Answers `queries` on rayon's current thread pool and returns the results in the
    /// queries' order, each as [`Pathfinder::search`] (or the index) would answer it alone.
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
        use rayon::prelude::*;
        queries
            .par_iter()
            .map_init(
                || self.lease(),
                |lease, query| self.route_one(lease.pathfinder(), world, query),
            )
            .collect()
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
        let mut lease = self.lease();
        queries
            .iter()
            .map(|query| self.route_one(lease.pathfinder(), world, query))
            .collect()
    }

    fn route_one<W, G>(
        &self,
        pathfinder: &mut Pathfinder,
        world: &W,
        query: &RouteQuery<G>,
    ) -> Result<SearchResult>
    where
        W: VersionedWorld + ?Sized,
        G: Goal,
    {
        let agent = query.agent.unwrap_or(*self.template.agent());
        if pathfinder.agent() != &agent {
            pathfinder.set_agent(agent)?;
        }
        indexed_search(
            pathfinder,
            self.index.as_ref().filter(|index| index.agent() == &agent),
            world,
            query.start,
            &query.goal,
            &self.options,
        )
    }

    /// A pathfinder from the pool (or a fresh one), returned to the pool when dropped.
    fn lease(&self) -> Lease<'_> {
        let pathfinder = self
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        Lease {
            router: self,
            pathfinder,
        }
    }
}

/// A pathfinder borrowed from a [`BatchRouter`]'s pool.
struct Lease<'a> {
    router: &'a BatchRouter,
    pathfinder: Option<Pathfinder>,
}

impl Lease<'_> {
    fn pathfinder(&mut self) -> &mut Pathfinder {
        self.pathfinder
            .get_or_insert_with(|| self.router.template.clone())
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(pathfinder) = self.pathfinder.take() {
            self.router
                .pool
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(pathfinder);
        }
    }
}
