//! Where an agent may be: the valid positions of each movement mode, and the reach of a
//! walker's fall. Kept apart from [`super::agent`], which only describes the agent, so that
//! the agent's description depends on none of the rules.

use glam::IVec3;

use crate::moves::agent::Agent;
use crate::moves::wide::BoxView;
use crate::moves::{MAX_WATER_DROP, fly, is_swimming_position};
use crate::world::{
    FULL_BLOCK, InvalidFeet, TerrainFlags, VoxelWorld, body_fits, check_feet, is_valid_feet,
};

impl Agent {
    /// The deepest fall one walking move may take: `max_drop`, or for an agent that swims at
    /// the surface at least [`MAX_WATER_DROP`] (a fall into water, rule 8).
    #[inline]
    #[must_use]
    pub const fn fall_reach(&self) -> u32 {
        if self.swims_at_surface() && self.max_drop < MAX_WATER_DROP {
            MAX_WATER_DROP
        } else {
            self.max_drop
        }
    }

    /// Whether `feet` is a valid position for this agent: a valid feet position for a walker
    /// ([`crate::world::is_valid_feet`]), or a swimming position with room for the body for a
    /// walker that swims ([`crate::moves::is_swimming_position`]); every body cell passable for
    /// a flier, or water for a swimmer ([`fly::body_allowed`]). For an agent wider than one
    /// block, the same in the [`BoxView`] of the world (see [`crate::moves::wide`]).
    #[inline]
    #[must_use]
    pub fn is_valid_position<W: VoxelWorld + ?Sized>(&self, world: &W, feet: IVec3) -> bool {
        by_width!(world, self, false, |world, agent| agent
            .is_valid_position_narrow(world, feet))
    }

    /// [`Agent::is_valid_position`] for an agent one block wide.
    #[inline]
    pub(crate) fn is_valid_position_narrow<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        feet: IVec3,
    ) -> bool {
        if self.movement.is_free() {
            fly::body_allowed_narrow(world, self, feet)
        } else {
            is_valid_feet(world, feet, self.height)
                || (self.swims_at_surface() && self.is_afloat(world, feet))
        }
    }

    /// Whether `feet` is a swimming position with room for this agent's body.
    #[inline]
    fn is_afloat<W: VoxelWorld + ?Sized>(&self, world: &W, feet: IVec3) -> bool {
        is_swimming_position(world, feet) && body_fits(world, feet, self.height)
    }

    /// Like [`Agent::is_valid_position`], but says why a position is not valid.
    ///
    /// # Errors
    /// For a walker, as [`check_feet`] (a swimming position of a walker that swims is
    /// valid). For a flier or swimmer, the first reason found in this
    /// order: out of the searchable key range, outside the world's bounds, a blocked body cell
    /// ([`InvalidFeet::NoHeadRoom`]), a body cell that is not water
    /// ([`InvalidFeet::NotInWater`], swimmers only). For an agent wider than one block, the
    /// same reasons in the [`BoxView`] of the world, with a blocked cell or a cell out of the
    /// water named as the world's cell of the box that is so (or the fence under the box
    /// that reaches into it); a width the rules do not serve is read as the nearest one.
    pub fn check_position<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        feet: IVec3,
    ) -> Result<(), InvalidFeet> {
        if self.width == 1 {
            return self.check_position_narrow(world, feet);
        }
        let view = BoxView::new(world, self.width);
        let width = view.width() as i32;
        let cells = |layer: IVec3| {
            (0..width).flat_map(move |b| {
                (0..width).filter_map(move |a| {
                    Some(IVec3::new(
                        layer.x.checked_add(a)?,
                        layer.y,
                        layer.z.checked_add(b)?,
                    ))
                })
            })
        };
        self.narrow()
            .check_position_narrow(&view, feet)
            .map_err(|reason| match reason {
                InvalidFeet::NoHeadRoom { blocked } => {
                    let blocked = cells(blocked)
                        .find(|&c| !world.is_passable(c))
                        .or_else(|| {
                            cells(blocked - IVec3::Y).find(|&c| world.floor_top(c) > FULL_BLOCK)
                        })
                        .unwrap_or(blocked);
                    InvalidFeet::NoHeadRoom { blocked }
                }
                InvalidFeet::NotInWater { cell } => InvalidFeet::NotInWater {
                    cell: cells(cell)
                        .find(|&c| !world.terrain(c).contains(TerrainFlags::IN_WATER))
                        .unwrap_or(cell),
                },
                other => other,
            })
    }

    /// [`Agent::check_position`] for an agent one block wide.
    fn check_position_narrow<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        feet: IVec3,
    ) -> Result<(), InvalidFeet> {
        if !self.movement.is_free() {
            if self.swims_at_surface() && self.is_afloat(world, feet) {
                return Ok(());
            }
            return check_feet(world, feet, self.height);
        }
        // The checks a walker's position gets, minus the floor.
        if !crate::world::key::in_key_range(feet) {
            return Err(InvalidFeet::OutOfKeyRange);
        }
        if world.bounds().is_some_and(|bounds| !bounds.contains(feet)) {
            return Err(InvalidFeet::OutOfWorld);
        }
        for dy in 0..self.height as i32 {
            let cell = feet + dy * IVec3::Y;
            if !world.is_passable(cell) {
                return Err(InvalidFeet::NoHeadRoom { blocked: cell });
            }
            if !fly::cell_allowed(world, self.movement, cell) {
                return Err(InvalidFeet::NotInWater { cell });
            }
        }
        Ok(())
    }
}
