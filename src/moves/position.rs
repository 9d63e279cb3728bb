//! Where an agent may be: the valid positions of each movement mode, and the reach of a
//! walker's fall. Kept apart from [`super::agent`], which only describes the agent, so that
//! the agent's description depends on none of the rules.

use glam::IVec3;

use crate::moves::agent::Agent;
use crate::moves::{MAX_WATER_DROP, fly, is_swimming_position};
use crate::world::{InvalidFeet, VoxelWorld, body_fits, check_feet, is_valid_feet};

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
    /// ([`crate::world::is_valid_feet`]), or a swimming position with room for the body for a walker
    /// that swims ([`crate::moves::is_swimming_position`]); every body cell passable for a
    /// flier, or water for a swimmer ([`fly::body_allowed`]).
    #[inline]
    #[must_use]
    pub fn is_valid_position<W: VoxelWorld + ?Sized>(&self, world: &W, feet: IVec3) -> bool {
        if self.movement.is_free() {
            fly::body_allowed(world, self, feet)
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
    /// ([`InvalidFeet::NotInWater`], swimmers only).
    pub fn check_position<W: VoxelWorld + ?Sized>(
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
