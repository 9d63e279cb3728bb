//! The agent's shape and abilities ([`Agent`]) and what its moves cost ([`MoveCosts`]).

use crate::error::{Error, Result};

/// The agent: how tall it is and how it may move.
///
/// ```
/// use voxnav::Agent;
/// let zombie = Agent::default().with_max_drop(2);
/// assert_eq!(zombie.height, 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Agent {
    /// Cells the body occupies above and including the feet. Defaults to 2.
    pub height: u32,
    /// The highest step the agent can climb in one move. Defaults to 1.
    pub max_step_up: u32,
    /// The deepest drop the agent takes in one move. Defaults to 3, the largest fall that
    /// costs no damage in Minecraft.
    pub max_drop: u32,
    /// Whether the 4 diagonal directions are tried. Defaults to `true`.
    pub diagonals: bool,
}

/// The largest value accepted for [`Agent::height`], [`Agent::max_step_up`] and
/// [`Agent::max_drop`]: far beyond any real agent, small enough that no move can leave the
/// key range in one step.
pub const MAX_AGENT_SPAN: u32 = 64;

impl Default for Agent {
    fn default() -> Self {
        Self {
            height: 2,
            max_step_up: 1,
            max_drop: 3,
            diagonals: true,
        }
    }
}

impl Agent {
    /// Sets [`Agent::height`].
    #[must_use]
    pub const fn with_height(mut self, height: u32) -> Self {
        self.height = height;
        self
    }

    /// Sets [`Agent::max_step_up`].
    #[must_use]
    pub const fn with_max_step_up(mut self, max_step_up: u32) -> Self {
        self.max_step_up = max_step_up;
        self
    }

    /// Sets [`Agent::max_drop`].
    #[must_use]
    pub const fn with_max_drop(mut self, max_drop: u32) -> Self {
        self.max_drop = max_drop;
        self
    }

    /// Sets [`Agent::diagonals`].
    #[must_use]
    pub const fn with_diagonals(mut self, diagonals: bool) -> Self {
        self.diagonals = diagonals;
        self
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `height` is 0 or any span exceeds [`MAX_AGENT_SPAN`].
    pub fn validate(&self) -> Result<()> {
        if self.height == 0 {
            return Err(Error::InvalidSetting(
                "agent height must be at least 1".into(),
            ));
        }
        for (name, value) in [
            ("height", self.height),
            ("max_step_up", self.max_step_up),
            ("max_drop", self.max_drop),
        ] {
            if value > MAX_AGENT_SPAN {
                return Err(Error::InvalidSetting(format!(
                    "agent {name} is {value}, more than the allowed {MAX_AGENT_SPAN}"
                )));
            }
        }
        Ok(())
    }
}

/// What each kind of move costs, in integer units.
///
/// The defaults follow the source article's 10 / 14 for straight and diagonal steps;
/// climbing a block costs as much as a step, falling is cheap but not free.
///
/// Terrain terms ([`MoveCosts::water`], [`MoveCosts::slow_floor`], [`MoveCosts::danger`])
/// are added to a move when the [`VoxelWorld::terrain`](crate::VoxelWorld::terrain) of its
/// target says so; [`MoveCosts::climb`] is added to each ladder move. In a world of only air
/// and solid blocks they never apply.
///
/// ```
/// use voxnav::MoveCosts;
/// let costs = MoveCosts::default();
/// assert_eq!((costs.straight, costs.diagonal, costs.ascend, costs.descend), (10, 14, 10, 2));
/// assert_eq!((costs.water, costs.slow_floor, costs.danger, costs.climb), (10, 15, 40, 10));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveCosts {
    /// A step to one of the 4 side neighbours. Defaults to 10.
    pub straight: u32,
    /// A step to one of the 4 diagonal neighbours. Defaults to 14 (10 * sqrt 2, rounded).
    pub diagonal: u32,
    /// Added per block climbed by a step up. Defaults to 10.
    pub ascend: u32,
    /// Added per block fallen by a drop. Defaults to 2.
    pub descend: u32,
    /// Added to a move whose target feet cell is water ([`TerrainFlags::IN_WATER`]): wading is
    /// twice as slow as walking. Defaults to 10.
    ///
    /// [`TerrainFlags::IN_WATER`]: crate::TerrainFlags::IN_WATER
    pub water: u32,
    /// Added to a move whose target stands on a slow floor ([`TerrainFlags::ON_SLOW_FLOOR`]), as
    /// soul sand slows a walker to well under half speed. Defaults to 15.
    ///
    /// [`TerrainFlags::ON_SLOW_FLOOR`]: crate::TerrainFlags::ON_SLOW_FLOOR
    pub slow_floor: u32,
    /// Added to a move whose target lies next to danger ([`TerrainFlags::NEAR_DANGER`]: lava in
    /// the 3x3x3 cube around the feet), the margin vanilla Minecraft keeps from lava: worth a
    /// detour of up to four steps. Defaults to 40.
    ///
    /// [`TerrainFlags::NEAR_DANGER`]: crate::TerrainFlags::NEAR_DANGER
    pub danger: u32,
    /// Added to each ladder move, on top of `ascend` (climbing one rung) or `descend`
    /// (climbing down one rung): a rung up costs as much as a step up. Defaults to 10.
    pub climb: u32,
}

impl Default for MoveCosts {
    fn default() -> Self {
        Self {
            straight: 10,
            diagonal: 14,
            ascend: 10,
            descend: 2,
            water: 10,
            slow_floor: 15,
            danger: 40,
            climb: 10,
        }
    }
}

/// The scale of [`MoveCosts::octile`]: a straight step costs this much.
pub const OCTILE_SCALE: u32 = 100_000;

impl MoveCosts {
    /// Octile costs at a large scale: `straight = 100_000`, `diagonal = 141_421`
    /// (`100_000 * sqrt 2`, rounded down), climbing and falling `100_000` per block, and the
    /// terrain terms at `10_000` times their defaults.
    ///
    /// Divide a route's cost by [`OCTILE_SCALE`] to get an octile length accurate to about
    /// `1e-6` per diagonal step, enough to reproduce Moving AI benchmark lengths.
    #[must_use]
    pub const fn octile() -> Self {
        Self {
            straight: OCTILE_SCALE,
            diagonal: 141_421,
            ascend: OCTILE_SCALE,
            descend: OCTILE_SCALE,
            water: OCTILE_SCALE,
            slow_floor: 150_000,
            danger: 400_000,
            climb: OCTILE_SCALE,
        }
    }

    /// Sets [`MoveCosts::straight`].
    #[must_use]
    pub const fn with_straight(mut self, straight: u32) -> Self {
        self.straight = straight;
        self
    }

    /// Sets [`MoveCosts::diagonal`].
    #[must_use]
    pub const fn with_diagonal(mut self, diagonal: u32) -> Self {
        self.diagonal = diagonal;
        self
    }

    /// Sets [`MoveCosts::ascend`].
    #[must_use]
    pub const fn with_ascend(mut self, ascend: u32) -> Self {
        self.ascend = ascend;
        self
    }

    /// Sets [`MoveCosts::descend`].
    #[must_use]
    pub const fn with_descend(mut self, descend: u32) -> Self {
        self.descend = descend;
        self
    }

    /// Sets [`MoveCosts::water`]. Defaults to 10.
    #[must_use]
    pub const fn with_water(mut self, water: u32) -> Self {
        self.water = water;
        self
    }

    /// Sets [`MoveCosts::slow_floor`]. Defaults to 15.
    #[must_use]
    pub const fn with_slow_floor(mut self, slow_floor: u32) -> Self {
        self.slow_floor = slow_floor;
        self
    }

    /// Sets [`MoveCosts::danger`]. Defaults to 40.
    #[must_use]
    pub const fn with_danger(mut self, danger: u32) -> Self {
        self.danger = danger;
        self
    }

    /// Sets [`MoveCosts::climb`]. Defaults to 10.
    #[must_use]
    pub const fn with_climb(mut self, climb: u32) -> Self {
        self.climb = climb;
        self
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when a horizontal step costs nothing (the search would not be
    /// guided by distance) or a cost is so large that one move could overflow `u32`.
    pub fn validate(&self) -> Result<()> {
        if self.straight == 0 || self.diagonal == 0 {
            return Err(Error::InvalidSetting(
                "straight and diagonal move costs must be at least 1".into(),
            ));
        }
        let worst = u64::from(self.straight.max(self.diagonal))
            + u64::from(self.ascend.max(self.descend))
                * u64::from(crate::moves::agent::MAX_AGENT_SPAN)
            + u64::from(self.water)
            + u64::from(self.slow_floor)
            + u64::from(self.danger)
            + u64::from(self.climb);
        if worst > u64::from(u32::MAX / 2) {
            return Err(Error::InvalidSetting(format!(
                "move costs are too large ({self:?}): one move could overflow"
            )));
        }
        Ok(())
    }
}
