//! Goals: where a search may end, and how far away that is estimated to be.

use glam::IVec3;

use crate::heuristic::Estimator;

/// Where a search may end.
///
/// The search stops at the first position popped from the open set for which
/// [`Goal::is_reached`] holds. [`Goal::estimate`] must not overestimate the cost to the
/// nearest reached position for the route to be optimal.
pub trait Goal {
    /// Whether standing at `feet` reaches the goal.
    fn is_reached(&self, feet: IVec3) -> bool;

    /// An estimate of the cost from `feet` to the goal.
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64;

    /// The single feet position this goal asks for, if it is one: the search then checks that
    /// it is a valid feet position before starting. Defaults to `None`.
    fn exact_target(&self) -> Option<IVec3> {
        None
    }
}

impl<G: Goal + ?Sized> Goal for &G {
    fn is_reached(&self, feet: IVec3) -> bool {
        (**self).is_reached(feet)
    }
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        (**self).estimate(feet, estimator)
    }
    fn exact_target(&self) -> Option<IVec3> {
        (**self).exact_target()
    }
}

/// Reach exactly this feet position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockGoal(pub IVec3);

impl Goal for BlockGoal {
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        feet == self.0
    }
    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        estimator.between(feet, self.0)
    }
    fn exact_target(&self) -> Option<IVec3> {
        Some(self.0)
    }
}

/// Get within `radius` blocks (Euclidean, inclusive) of `center`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RadiusGoal {
    /// The point to get near.
    pub center: IVec3,
    /// The largest accepted distance, in blocks.
    pub radius: u32,
}

impl Goal for RadiusGoal {
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        let d = (feet - self.center).as_i64vec3();
        d.length_squared() <= i64::from(self.radius) * i64::from(self.radius)
    }

    /// Admissible: any position within the radius differs from the centre by at most
    /// `radius` along each axis, so the estimate to the centre with each axis shortened by
    /// `radius` never overestimates.
    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        let d = self.center - feet;
        let r = self.radius;
        let dy = if d.y >= 0 {
            d.y.saturating_sub_unsigned(r).max(0)
        } else {
            d.y.saturating_add_unsigned(r).min(0)
        };
        estimator.delta(
            d.x.unsigned_abs().saturating_sub(r),
            dy,
            d.z.unsigned_abs().saturating_sub(r),
        )
    }
}

/// Reach the column at `x`, `z`, at any height.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColumnGoal {
    /// The column's x.
    pub x: i32,
    /// The column's z.
    pub z: i32,
}

impl Goal for ColumnGoal {
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        feet.x == self.x && feet.z == self.z
    }
    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        estimator.delta(
            (self.x - feet.x).unsigned_abs(),
            0,
            (self.z - feet.z).unsigned_abs(),
        )
    }
}
