//! [`Block`]: what occupies a cell of a [`ChunkedWorld`](super::ChunkedWorld), and the per-cell
//! kind codes the chunks store for blocks other than air and solid.

use crate::error::{Error, Result};
use crate::world::{FENCE_TOP, FULL_BLOCK};

/// What occupies a cell.
///
/// | block | text | passable | standable | what else |
/// |---|---|---|---|---|
/// | [`Block::Air`] | `.` | yes | no | |
/// | [`Block::Solid`] | `#` | no | yes | |
/// | [`Block::Water`] | `~` | yes | no | feet in it pay [`MoveCosts::water`](crate::MoveCosts::water) |
/// | [`Block::Lava`] | `L` | no | no | cells within one block pay [`MoveCosts::danger`](crate::MoveCosts::danger) |
/// | [`Block::SlowFloor`] | `=` | no | yes | standing on it pays [`MoveCosts::slow_floor`](crate::MoveCosts::slow_floor) |
/// | [`Block::Ladder`] | `H` | yes | yes | climbable straight up and down (see [`crate::moves`]) |
/// | [`Block::Floor`] | `1`-`9`, `a`-`f` (the top in sixteenths, hex) | no | yes | a floor lower than a full block: bottom slab (8), snow layers, ... |
/// | [`Block::Fence`] | `F` | no | no | 1.5 blocks tall: fences and walls; the cell above is blocked too |
/// | [`Block::Door`] | `D` | yes | no | a wooden door or fence gate the agent opens |
/// | [`Block::Barrier`] | `X` | no | no | harmless and impassable: iron doors, unloaded chunks |
/// | [`Block::Hazard`] | `!` | no | no | damaging (fire, magma, cactus, ...): cells within one block pay [`MoveCosts::danger`](crate::MoveCosts::danger) |
/// | [`Block::Cobweb`] | `W` | yes | no | slows whoever passes through it |
/// | [`Block::Leaves`] | `T` | no | yes | tree leaves: a floor like [`Block::Solid`], told apart so a tree crown is not taken for ground |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Block {
    /// Passable, not standable.
    #[default]
    Air,
    /// Standable, not passable.
    Solid,
    /// Passable like air, not standable; walking with the feet in it costs more.
    Water,
    /// Neither passable nor standable; the cells next to it cost more (danger).
    Lava,
    /// Standable, not passable, like [`Block::Solid`]; walking on top of it costs more
    /// (soul sand).
    SlowFloor,
    /// Passable and standable: the body may be in it, the agent may stand on it (holding on),
    /// and it may climb straight up and down through a column of ladders.
    Ladder,
    /// A floor lower than a full block (a bottom slab, snow of 3 or more layers, a bed...):
    /// standable, not passable. The value is the top of its collision box in sixteenths of a
    /// block, from 1 to 15; [`ChunkedWorld::set`](super::ChunkedWorld::set) refuses other values.
    Floor(u8),
    /// A fence, wall or anything else whose collision box reaches 1.5 blocks: neither passable
    /// nor standable, and it blocks the cell above it as well.
    Fence,
    /// A wooden door or fence gate: passable (the agent opens it), not standable.
    Door,
    /// Neither passable nor standable, and harmless: iron doors, barriers, unloaded chunks.
    Barrier,
    /// A damaging block (fire, magma, cactus, sweet berry bush...): never entered or stood on,
    /// and the cells within one block of it pay the danger cost, as next to lava.
    Hazard,
    /// A cobweb: passable, not standable; passing through it is slow.
    Cobweb,
    /// Tree leaves: standable, not passable, exactly like [`Block::Solid`] for every rule; a
    /// kind of its own so that a caller can tell a tree crown from the ground
    /// ([`crate::world::pick::is_natural_ground`]).
    Leaves,
}

/// The per-cell kind codes of [`ChunkExtra::kinds`](super::chunk::ChunkExtra::kinds); 0 means "Air or Solid, as the bits say".
pub(super) const KIND_PLAIN: u8 = 0;
pub(super) const KIND_WATER: u8 = 1;
pub(super) const KIND_LAVA: u8 = 2;
pub(super) const KIND_SLOW_FLOOR: u8 = 3;
pub(super) const KIND_LADDER: u8 = 4;
pub(super) const KIND_FENCE: u8 = 5;
pub(super) const KIND_DOOR: u8 = 6;
pub(super) const KIND_HAZARD: u8 = 7;
pub(super) const KIND_COBWEB: u8 = 8;
pub(super) const KIND_LEAVES: u8 = 9;
/// [`Block::Floor`]`(top)` is `KIND_FLOOR + top`, for tops 1 to 15.
pub(super) const KIND_FLOOR: u8 = 16;

/// [`VoxelWorld::floor_top`](crate::world::VoxelWorld::floor_top) of a cell of kind `kind`.
#[inline]
pub(super) const fn floor_top_of_kind(kind: u8) -> u8 {
    match kind {
        KIND_FENCE => FENCE_TOP,
        KIND_FLOOR.. => kind - KIND_FLOOR,
        _ => FULL_BLOCK,
    }
}

/// Whether cells next to a block of kind `kind` are dangerous.
#[inline]
pub(super) const fn is_dangerous_kind(kind: u8) -> bool {
    kind == KIND_LAVA || kind == KIND_HAZARD
}

impl Block {
    #[inline]
    pub(super) const fn bits(self) -> (bool, bool) {
        match self {
            Block::Air | Block::Water | Block::Door | Block::Cobweb => (true, false),
            Block::Solid | Block::SlowFloor | Block::Floor(_) | Block::Leaves => (false, true),
            Block::Lava | Block::Fence | Block::Barrier | Block::Hazard => (false, false),
            Block::Ladder => (true, true),
        }
    }

    /// Whether the cells within one block of this one pay the danger cost ([`Block::Lava`]
    /// and [`Block::Hazard`]).
    #[inline]
    #[must_use]
    pub const fn is_dangerous(self) -> bool {
        is_dangerous_kind(self.kind_code())
    }

    /// [`Error::InvalidSetting`] for a [`Block::Floor`] whose top is not 1 to 15.
    pub(super) fn check(self) -> Result<()> {
        match self {
            Block::Floor(top) if !matches!(top, 1..=15) => Err(Error::InvalidSetting(format!(
                "a floor's top must be 1 to 15 sixteenths of a block, found {top}"
            ))),
            _ => Ok(()),
        }
    }

    #[inline]
    pub(super) const fn kind_code(self) -> u8 {
        match self {
            Block::Air | Block::Solid | Block::Barrier => KIND_PLAIN,
            Block::Water => KIND_WATER,
            Block::Lava => KIND_LAVA,
            Block::SlowFloor => KIND_SLOW_FLOOR,
            Block::Ladder => KIND_LADDER,
            Block::Floor(top) => KIND_FLOOR + top,
            Block::Fence => KIND_FENCE,
            Block::Door => KIND_DOOR,
            Block::Hazard => KIND_HAZARD,
            Block::Cobweb => KIND_COBWEB,
            Block::Leaves => KIND_LEAVES,
        }
    }

    #[inline]
    pub(super) const fn from_parts(passable: bool, standable: bool, kind: u8) -> Self {
        match kind {
            KIND_WATER => Block::Water,
            KIND_LAVA => Block::Lava,
            KIND_SLOW_FLOOR => Block::SlowFloor,
            KIND_LADDER => Block::Ladder,
            KIND_FENCE => Block::Fence,
            KIND_DOOR => Block::Door,
            KIND_HAZARD => Block::Hazard,
            KIND_COBWEB => Block::Cobweb,
            KIND_LEAVES => Block::Leaves,
            KIND_FLOOR.. => Block::Floor(kind - KIND_FLOOR),
            _ => match (passable, standable) {
                (true, false) => Block::Air,
                (false, false) => Block::Barrier,
                _ => Block::Solid,
            },
        }
    }
}
