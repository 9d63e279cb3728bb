//! The agent's shape and abilities ([`Agent`]) and what its moves cost ([`MoveCosts`]).

use crate::error::{Error, Result};

/// How an agent gets about: the rules its neighbour generator follows.
///
/// Every mode runs through the same search ([`crate::engine::Pathfinder`]) with the same goals,
/// budgets, partial routes and errors; only the moves and what makes a position valid differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Movement {
    /// The walking rules of [`crate::moves`]: feet on a floor, steps up and drops, ladders.
    /// A position is valid when the body fits and the cell below is standable. The default.
    #[default]
    Walk,
    /// Free flight to any of the 26 neighbouring cells (rules in [`crate::moves::fly`]): a
    /// position is valid when every cell of the body is passable, no floor needed.
    Fly,
    /// Swimming: the moves of [`Movement::Fly`], but every cell the body occupies or sweeps
    /// must be water ([`crate::world::TerrainFlags::IN_WATER`]).
    Swim,
}

impl Movement {
    /// `"walk"`, `"fly"` or `"swim"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Movement::Walk => "walk",
            Movement::Fly => "fly",
            Movement::Swim => "swim",
        }
    }

    /// Whether the agent moves freely in three dimensions (flies or swims) rather than walks.
    #[inline]
    #[must_use]
    pub const fn is_free(self) -> bool {
        !matches!(self, Movement::Walk)
    }
}

/// What a walking agent does with water (rules 7 and 8 of [`crate::moves`]).
///
/// Fliers and swimmers ([`Movement::Fly`], [`Movement::Swim`]) ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum WaterMode {
    /// Wades through water one block deep and never enters deeper water (rule 7). The
    /// default, so that the routes of agents built before swimming existed stay the same.
    #[default]
    Wade,
    /// Wades, and also floats at the surface of deeper water: swimming positions are valid
    /// and a fall into water may be of any depth up to [`crate::moves::MAX_WATER_DROP`]
    /// (rule 8). Most land mobs of the game do this.
    Swim,
    /// Never ends a move with its feet in water, not even water one block deep (as endermen
    /// and blazes, which water hurts).
    Avoid,
}

impl WaterMode {
    /// `"wade"`, `"swim"` or `"avoid"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            WaterMode::Wade => "wade",
            WaterMode::Swim => "swim",
            WaterMode::Avoid => "avoid",
        }
    }
}

impl std::fmt::Display for WaterMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for Movement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The agent: how tall it is and how it may move.
///
/// [`Agent::mob`] gives the agent of a Minecraft mob type (see [`crate::moves::profile`]).
///
/// ```
/// use voxnav::{Agent, Movement};
/// use voxnav::moves::agent::WaterMode;
/// let walker = Agent::default().with_max_drop(2);
/// assert_eq!((walker.height, walker.water), (2, WaterMode::Wade));
/// let swimmer = Agent::default().with_water(WaterMode::Swim);
/// assert!(swimmer.swims_at_surface());
/// let bee = Agent::flier(1);
/// assert_eq!(bee.movement, Movement::Fly);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Agent {
    /// Cells the body occupies above and including the feet. Defaults to 2.
    pub height: u32,
    /// Blocks the body spans along x and along z, 1 to
    /// [`MAX_AGENT_WIDTH`]: the feet cell is the min-x,
    /// min-z corner of a `width x height x width` box (see [`crate::moves::wide`]). Defaults
    /// to 1.
    pub width: u32,
    /// The highest step the agent can climb in one move. Defaults to 1.
    pub max_step_up: u32,
    /// The deepest drop the agent takes in one move. Defaults to 3, the largest fall that
    /// costs no damage in Minecraft.
    pub max_drop: u32,
    /// Whether the 4 diagonal directions are tried. Defaults to `true`. Walking only: fliers
    /// and swimmers always have all 26 neighbours.
    pub diagonals: bool,
    /// Walk, fly or swim. Defaults to [`Movement::Walk`]. `max_step_up` and `max_drop` only
    /// matter to walkers.
    pub movement: Movement,
    /// What a walker does with water: wade, swim or avoid it. Defaults to
    /// [`WaterMode::Wade`]. Walking only.
    pub water: WaterMode,
    /// Whether the agent opens wooden doors and fence gates. When `false`, no walking move
    /// ends with the feet in a door ([`TerrainFlags::IN_DOOR`]): the door stays shut for
    /// it. Defaults to `true`. Walking only.
    ///
    /// [`TerrainFlags::IN_DOOR`]: crate::world::TerrainFlags::IN_DOOR
    pub opens_doors: bool,
}

/// The largest value accepted for [`Agent::height`], [`Agent::max_step_up`] and
/// [`Agent::max_drop`]: far beyond any real agent, small enough that no move can leave the
/// key range in one step.
pub const MAX_AGENT_SPAN: u32 = 64;

/// The widest agent the rules serve, in blocks ([`Agent::width`]): an iron golem (1.4), a
/// spider (1.4) or a ravager (1.95) rounds up to 2; only the ghasts and the giant (4) are
/// wider than 3.
pub const MAX_AGENT_WIDTH: u32 = 3;

impl Default for Agent {
    fn default() -> Self {
        Self {
            height: 2,
            width: 1,
            max_step_up: 1,
            max_drop: 3,
            diagonals: true,
            movement: Movement::Walk,
            water: WaterMode::Wade,
            opens_doors: true,
        }
    }
}

impl Agent {
    /// A flier `height` cells tall ([`Movement::Fly`]), the other settings at their defaults.
    #[must_use]
    pub const fn flier(height: u32) -> Self {
        Self {
            height,
            width: 1,
            max_step_up: 1,
            max_drop: 3,
            diagonals: true,
            movement: Movement::Fly,
            water: WaterMode::Wade,
            opens_doors: true,
        }
    }

    /// A swimmer `height` cells tall ([`Movement::Swim`]), the other settings at their
    /// defaults.
    #[must_use]
    pub const fn swimmer(height: u32) -> Self {
        Self {
            height,
            width: 1,
            max_step_up: 1,
            max_drop: 3,
            diagonals: true,
            movement: Movement::Swim,
            water: WaterMode::Wade,
            opens_doors: true,
        }
    }

    /// Sets [`Agent::movement`].
    #[must_use]
    pub const fn with_movement(mut self, movement: Movement) -> Self {
        self.movement = movement;
        self
    }

    /// Sets [`Agent::water`].
    #[must_use]
    pub const fn with_water(mut self, water: WaterMode) -> Self {
        self.water = water;
        self
    }

    /// Sets [`Agent::opens_doors`].
    #[must_use]
    pub const fn with_opens_doors(mut self, opens_doors: bool) -> Self {
        self.opens_doors = opens_doors;
        self
    }

    /// Whether the agent walks and swims at the surface of deep water
    /// ([`WaterMode::Swim`]).
    #[inline]
    #[must_use]
    pub const fn swims_at_surface(&self) -> bool {
        matches!(self.movement, Movement::Walk) && matches!(self.water, WaterMode::Swim)
    }

    /// Whether the agent walks and never enters water ([`WaterMode::Avoid`]).
    #[inline]
    #[must_use]
    pub const fn avoids_water(&self) -> bool {
        matches!(self.movement, Movement::Walk) && matches!(self.water, WaterMode::Avoid)
    }

    /// Checks that the agent walks, for engines built on the walking rules only.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] naming `engine` when the agent flies or swims.
    pub fn require_walking(&self, engine: &str) -> Result<()> {
        if self.movement.is_free() {
            return Err(Error::InvalidSetting(format!(
                "{engine} serves walking agents only, not an agent that can {}; use a Pathfinder",
                self.movement
            )));
        }
        Ok(())
    }

    /// Sets [`Agent::height`].
    #[must_use]
    pub const fn with_height(mut self, height: u32) -> Self {
        self.height = height;
        self
    }

    /// Sets [`Agent::width`].
    #[must_use]
    pub const fn with_width(mut self, width: u32) -> Self {
        self.width = width;
        self
    }

    /// This agent one block wide: the agent whose rules a wide agent follows in the
    /// [`BoxView`](crate::moves::wide::BoxView) of the world.
    #[inline]
    #[must_use]
    pub(crate) const fn narrow(&self) -> Self {
        let mut narrow = *self;
        narrow.width = 1;
        narrow
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
    /// [`Error::InvalidSetting`] when `height` is 0, any span exceeds [`MAX_AGENT_SPAN`], or
    /// `width` is not 1 to [`MAX_AGENT_WIDTH`].
    pub fn validate(&self) -> Result<()> {
        let max_width = MAX_AGENT_WIDTH;
        if !(1..=max_width).contains(&self.width) {
            return Err(Error::InvalidSetting(format!(
                "agent width is {}, but agents are 1 to {max_width} blocks wide",
                self.width
            )));
        }
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
/// Terrain terms ([`MoveCosts::water`], [`MoveCosts::swim`], [`MoveCosts::slow_floor`], [`MoveCosts::danger`],
/// [`MoveCosts::door`], [`MoveCosts::cobweb`]) are added to a move when the
/// [`VoxelWorld::terrain`](crate::world::VoxelWorld::terrain) of its target says so;
/// [`MoveCosts::climb`] is added to each ladder move and [`MoveCosts::jump`] to each move that
/// needs a jump (rule 6 of [`crate::moves`]). In a world of only air and solid blocks only
/// `jump` can apply, and it defaults to 0.
///
/// Fliers and swimmers pay [`MoveCosts::straight`] for a face step (one axis),
/// [`MoveCosts::diagonal`] for an edge step (two axes) and [`MoveCosts::corner`] for a corner
/// step (three axes), plus the world's [`VoxelWorld::extra_cost`](crate::world::VoxelWorld::extra_cost)
/// of the target; the climbing, falling and terrain terms are the walker's.
///
/// ```
/// use voxnav::MoveCosts;
/// let costs = MoveCosts::default();
/// assert_eq!((costs.straight, costs.diagonal, costs.ascend, costs.descend), (10, 14, 10, 2));
/// assert_eq!(costs.corner, 17);
/// assert_eq!((costs.water, costs.slow_floor, costs.danger, costs.climb), (10, 15, 40, 10));
/// assert_eq!((costs.door, costs.cobweb, costs.jump), (10, 30, 0));
/// assert_eq!(costs.swim, 10);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveCosts {
    /// A step to one of the 4 side neighbours. Defaults to 10.
    pub straight: u32,
    /// A step to one of the 4 diagonal neighbours. Defaults to 14 (10 * sqrt 2, rounded).
    pub diagonal: u32,
    /// A flier's or swimmer's corner step, along all three axes at once. Defaults to 17
    /// (10 * sqrt 3, rounded).
    pub corner: u32,
    /// Added per block climbed by a step up. Defaults to 10.
    pub ascend: u32,
    /// Added per block fallen by a drop. Defaults to 2.
    pub descend: u32,
    /// Added to a move whose target feet cell is water ([`TerrainFlags::IN_WATER`]): wading is
    /// twice as slow as walking. Defaults to 10.
    ///
    /// [`TerrainFlags::IN_WATER`]: crate::world::TerrainFlags::IN_WATER
    pub water: u32,
    /// Added, on top of `water`, to a move whose target is a swimming position
    /// ([`TerrainFlags::SWIMMING`], rule 8 of [`crate::moves`]): a mob swimming at the surface
    /// is slower than one wading, so crossing water by swimming costs three times a walk.
    /// Defaults to 10. Only agents that swim ([`WaterMode::Swim`]) reach such positions.
    ///
    /// [`TerrainFlags::SWIMMING`]: crate::world::TerrainFlags::SWIMMING
    pub swim: u32,
    /// Added to a move whose target stands on a slow floor ([`TerrainFlags::ON_SLOW_FLOOR`]), as
    /// soul sand slows a walker to well under half speed. Defaults to 15.
    ///
    /// [`TerrainFlags::ON_SLOW_FLOOR`]: crate::world::TerrainFlags::ON_SLOW_FLOOR
    pub slow_floor: u32,
    /// Added to a move whose target lies next to danger ([`TerrainFlags::NEAR_DANGER`]: lava in
    /// the 3x3x3 cube around the feet), the margin vanilla Minecraft keeps from lava: worth a
    /// detour of up to four steps. Defaults to 40.
    ///
    /// [`TerrainFlags::NEAR_DANGER`]: crate::world::TerrainFlags::NEAR_DANGER
    pub danger: u32,
    /// Added to each ladder move, on top of `ascend` (climbing one rung) or `descend`
    /// (climbing down one rung): a rung up costs as much as a step up. Defaults to 10.
    pub climb: u32,
    /// Added to a move whose target feet cell is a door or fence gate
    /// ([`TerrainFlags::IN_DOOR`]): the agent stops to open it, about one step's time.
    /// Defaults to 10.
    ///
    /// [`TerrainFlags::IN_DOOR`]: crate::world::TerrainFlags::IN_DOOR
    pub door: u32,
    /// Added to a move whose target has a cobweb at the feet or the head
    /// ([`TerrainFlags::IN_COBWEB`]): a cobweb cuts a walker's speed to a quarter, so crossing
    /// one takes three steps longer. Defaults to 30.
    ///
    /// [`TerrainFlags::IN_COBWEB`]: crate::world::TerrainFlags::IN_COBWEB
    pub cobweb: u32,
    /// Added to a move that needs a jump: its floor rises by more than a walker's step height
    /// (more than 9 sixteenths of a block, see rule 6 of [`crate::moves`]). Height gained is
    /// already paid by [`MoveCosts::ascend`] per block the feet rise; this term is the extra
    /// time of jumping, which a walk up onto a slab does not pay. Defaults to 0, so that the
    /// costs of whole-block worlds, where every step up is a jump, stay as they were.
    pub jump: u32,
}

impl Default for MoveCosts {
    fn default() -> Self {
        Self {
            straight: 10,
            diagonal: 14,
            corner: 17,
            ascend: 10,
            descend: 2,
            water: 10,
            swim: 10,
            slow_floor: 15,
            danger: 40,
            climb: 10,
            door: 10,
            cobweb: 30,
            jump: 0,
        }
    }
}

/// The scale of [`MoveCosts::octile`]: a straight step costs this much.
pub const OCTILE_SCALE: u32 = 100_000;

impl MoveCosts {
    /// Octile costs at a large scale: `straight = 100_000`, `diagonal = 141_421`
    /// (`100_000 * sqrt 2`, rounded down), `corner = 173_205` (`100_000 * sqrt 3`, rounded
    /// down), climbing and falling `100_000` per block, and the terrain terms at `10_000` times
    /// their defaults (`jump` stays 0).
    ///
    /// Divide a route's cost by [`OCTILE_SCALE`] to get an octile length accurate to about
    /// `4e-6` per diagonal step (`1e-6` per corner step), enough to reproduce Moving AI
    /// benchmark lengths: a route of 2 500 diagonal steps is off by less than 0.01.
    #[must_use]
    pub const fn octile() -> Self {
        Self {
            straight: OCTILE_SCALE,
            diagonal: 141_421,
            corner: 173_205,
            ascend: OCTILE_SCALE,
            descend: OCTILE_SCALE,
            water: OCTILE_SCALE,
            swim: OCTILE_SCALE,
            slow_floor: 150_000,
            danger: 400_000,
            climb: OCTILE_SCALE,
            door: OCTILE_SCALE,
            cobweb: 300_000,
            jump: 0,
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

    /// Sets [`MoveCosts::corner`].
    #[must_use]
    pub const fn with_corner(mut self, corner: u32) -> Self {
        self.corner = corner;
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

    /// Sets [`MoveCosts::swim`]. Defaults to 10.
    #[must_use]
    pub const fn with_swim(mut self, swim: u32) -> Self {
        self.swim = swim;
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

    /// Sets [`MoveCosts::door`]. Defaults to 10.
    #[must_use]
    pub const fn with_door(mut self, door: u32) -> Self {
        self.door = door;
        self
    }

    /// Sets [`MoveCosts::cobweb`]. Defaults to 30.
    #[must_use]
    pub const fn with_cobweb(mut self, cobweb: u32) -> Self {
        self.cobweb = cobweb;
        self
    }

    /// Sets [`MoveCosts::jump`]. Defaults to 0.
    #[must_use]
    pub const fn with_jump(mut self, jump: u32) -> Self {
        self.jump = jump;
        self
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when a step costs nothing (the search would not be
    /// guided by distance) or a cost is so large that one move could overflow `u32`.
    pub fn validate(&self) -> Result<()> {
        if self.straight == 0 || self.diagonal == 0 || self.corner == 0 {
            return Err(Error::InvalidSetting(
                "straight, diagonal and corner move costs must be at least 1".into(),
            ));
        }
        let worst = u64::from(self.straight.max(self.diagonal).max(self.corner))
            + u64::from(self.ascend.max(self.descend))
                * u64::from(crate::moves::agent::MAX_AGENT_SPAN)
            + u64::from(self.water)
            + u64::from(self.swim)
            + u64::from(self.slow_floor)
            + u64::from(self.danger)
            + u64::from(self.climb)
            + u64::from(self.door)
            + u64::from(self.cobweb)
            + u64::from(self.jump);
        if worst > u64::from(u32::MAX / 2) {
            return Err(Error::InvalidSetting(format!(
                "move costs are too large ({self:?}): one move could overflow"
            )));
        }
        Ok(())
    }
}
