//! [`Navigator`]: a [`Pathfinder`] with a [`ReachIndex`] in front of it, and
//! [`indexed_search`], the one place a query meets the index.

use std::time::Instant;

use glam::IVec3;

use super::index::ReachIndex;
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::{BlockGoal, Goal, Pathfinder, SearchOptions, SearchResult, SearchStats};
use crate::world::VersionedWorld;

/// Searches with `pathfinder`, but first asks `index` (when given and the goal names an exact
/// target): when the index proves the goal unreachable ([`Reach::proves_unreachable`](super::Reach::proves_unreachable): a
/// start and goal in different regions, or one-way moves leading the wrong way), the answer
/// is [`SearchStatus::Unreachable`](crate::SearchStatus::Unreachable) at once, with zero expansions.
///
/// Start, goal and budgets are checked exactly as [`Pathfinder::search`] checks them, so
/// the index changes only how fast an answer comes, never which answer (or error).
///
/// # Errors
/// As [`Pathfinder::search`].
pub fn indexed_search<W, G>(
    pathfinder: &mut Pathfinder,
    index: Option<&ReachIndex>,
    world: &W,
    start: IVec3,
    goal: &G,
    options: &SearchOptions,
) -> Result<SearchResult>
where
    W: VersionedWorld + ?Sized,
    G: Goal + ?Sized,
{
    if let (Some(index), Some(target)) = (index, goal.exact_target()) {
        let started = Instant::now();
        let agent = *pathfinder.agent();
        agent
            .check_position(world, start)
            .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        agent
            .check_position(world, target)
            .map_err(|reason| Error::InvalidGoal {
                pos: target,
                reason,
            })?;
        if options.max_nodes == Some(0) {
            return Err(Error::ZeroBudget);
        }
        if options.max_time.is_some_and(|t| t.is_zero()) {
            return Err(Error::ZeroTimeBudget);
        }
        if index
            .reach(world, &agent, start, target)
            .proves_unreachable()
        {
            return Ok(SearchResult::unreachable(SearchStats {
                expanded: 0,
                generated: 0,
                elapsed: started.elapsed(),
            }));
        }
    }
    pathfinder.search(world, start, goal, options)
}

/// A [`Pathfinder`] with an optional [`ReachIndex`] in front of it: unreachable exact goals
/// are answered without searching, and a stale index is rebuilt lazily on the next query.
#[derive(Debug, Clone)]
pub struct Navigator {
    pathfinder: Pathfinder,
    index: Option<ReachIndex>,
    lazy_rebuild: bool,
}

impl Navigator {
    /// A navigator for `agent` moving at `costs`, without an index yet.
    ///
    /// # Errors
    /// As [`Pathfinder::new`].
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        Ok(Self {
            pathfinder: Pathfinder::new(agent, costs)?,
            index: None,
            lazy_rebuild: true,
        })
    }

    /// Uses `index` from now on.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the index was built for another agent.
    pub fn with_index(mut self, index: ReachIndex) -> Result<Self> {
        check_index_agent(&index, self.pathfinder.agent())?;
        self.index = Some(index);
        Ok(self)
    }

    /// Whether a stale index is rebuilt before the next query (`true`) or ignored until
    /// [`Navigator::refresh_index`] is called (`false`, for worlds that change every tick,
    /// where a rebuild per query would cost more than it saves). Either way a stale index is
    /// never trusted. Defaults to `true`.
    #[must_use]
    pub fn with_lazy_rebuild(mut self, lazy_rebuild: bool) -> Self {
        self.lazy_rebuild = lazy_rebuild;
        self
    }

    /// Builds (or rebuilds) the index from `world` and returns it.
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn build_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&ReachIndex> {
        let index = ReachIndex::build(world, self.pathfinder.agent())?;
        Ok(self.index.insert(index))
    }

    /// Rebuilds the index if it is stale; returns whether it rebuilt (`false` without an
    /// index).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn refresh_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        match &mut self.index {
            Some(index) => index.refresh(world),
            None => Ok(false),
        }
    }

    /// The index, if there is one.
    #[must_use]
    pub fn index(&self) -> Option<&ReachIndex> {
        self.index.as_ref()
    }

    /// The pathfinder (for [`Pathfinder::explored`] and the agent). A query the index
    /// answered does not search, so the pathfinder still holds the search before it.
    #[must_use]
    pub fn pathfinder(&self) -> &Pathfinder {
        &self.pathfinder
    }

    /// Finds a route from the feet position `start` to the feet position `goal`; see
    /// [`Navigator::search`].
    ///
    /// # Errors
    /// As [`Navigator::search`].
    pub fn find_path<W: VersionedWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.search(world, start, &BlockGoal(goal), options)
    }

    /// Searches like [`Pathfinder::search`], after asking the index when the goal names an
    /// exact target. A stale index is rebuilt first when lazy rebuilds are on.
    ///
    /// # Errors
    /// As [`Pathfinder::search`], and as [`ReachIndex::build`] when a lazy rebuild fails.
    pub fn search<W: VersionedWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        if self.lazy_rebuild && goal.exact_target().is_some() {
            self.refresh_index(world)?;
        }
        indexed_search(
            &mut self.pathfinder,
            self.index.as_ref(),
            world,
            start,
            goal,
            options,
        )
    }
}

/// [`Error::InvalidSetting`] unless `index` was built for `agent`.
pub(crate) fn check_index_agent(index: &ReachIndex, agent: &Agent) -> Result<()> {
    if index.agent() == agent {
        Ok(())
    } else {
        Err(Error::InvalidSetting(format!(
            "the reachability index was built for agent {:?}, not for {agent:?}",
            index.agent()
        )))
    }
}
