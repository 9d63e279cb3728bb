//! Goals: where a search may end, and how far away that is estimated to be.

use glam::IVec3;

use crate::search::heuristic::{Estimator, MAX_ESTIMATE};

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

    /// `Some(p)` when this goal is exactly [`BlockGoal`]`(p)`: reached at `p` and nowhere
    /// else, and estimated as [`Estimator::between`] the feet and `p`. A search over a
    /// compiled [`NavGraph`](crate::engine::NavGraph) then tests the goal by node id and computes the
    /// estimate without asking the goal. Defaults to `None`; a goal returning `Some` must
    /// behave exactly like that [`BlockGoal`], or routes may not be optimal.
    fn block_target(&self) -> Option<IVec3> {
        None
    }
}

macro_rules! forward_goal {
    ($($ty:ty),*) => {$(
        impl<G: Goal + ?Sized> Goal for $ty {
            fn is_reached(&self, feet: IVec3) -> bool {
                (**self).is_reached(feet)
            }
            fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
                (**self).estimate(feet, estimator)
            }
            fn exact_target(&self) -> Option<IVec3> {
                (**self).exact_target()
            }
            fn block_target(&self) -> Option<IVec3> {
                (**self).block_target()
            }
        }
    )*};
}

forward_goal!(&G, Box<G>);

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
    fn block_target(&self) -> Option<IVec3> {
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
    /// Exact for every centre, radius and position: the squares are summed in 128 bits.
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        distance_squared(feet, self.center, false) <= u128::from(self.radius).pow(2)
    }

    /// Admissible: any position within the radius differs from the centre by at most
    /// `radius` along each axis, so the estimate to the centre with each axis shortened by
    /// `radius` never overestimates.
    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        let d = self.center.as_i64vec3() - feet.as_i64vec3();
        let r = i64::from(self.radius);
        let dy = if d.y >= 0 {
            (d.y - r).max(0)
        } else {
            (d.y + r).min(0)
        };
        // Two i32 coordinates differ by at most 2^32 - 1, which fits u32.
        let shortened = |along: i64| (along.unsigned_abs().saturating_sub(r as u64)) as u32;
        estimator.delta(shortened(d.x), dy, shortened(d.z))
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
        // The differences of two i32 coordinates fit u32 once taken in 64 bits.
        let across = |a: i32, b: i32| (i64::from(a) - i64::from(b)).unsigned_abs() as u32;
        estimator.delta(across(self.x, feet.x), 0, across(self.z, feet.z))
    }
}

/// Reach any one of several goals: the search ends at the first position that reaches one of
/// them (the cheapest such position when the estimates are admissible).
///
/// The estimate is the minimum of the goals' estimates, so it is admissible (consistent)
/// when each of theirs is. With no goals at all, nothing is ever reached and the estimate is
/// 0.
///
/// Mixed goal types go in boxes (the default type parameter):
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::engine::{AnyOfGoal, ColumnGoal};
/// use voxnav::{BlockGoal, Goal};
///
/// let goal: AnyOfGoal = AnyOfGoal::new(vec![
///     Box::new(BlockGoal(IVec3::new(5, 1, 5))),
///     Box::new(ColumnGoal { x: -3, z: 8 }),
/// ]);
/// assert!(goal.is_reached(IVec3::new(-3, 40, 8)));
/// assert_eq!(goal.which_reached(IVec3::new(5, 1, 5)), Some(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct AnyOfGoal<G = Box<dyn Goal + Send + Sync>> {
    /// The goals; the first one (in this order) that a position reaches is the one
    /// [`AnyOfGoal::which_reached`] names.
    pub goals: Vec<G>,
}

impl<G: Goal> AnyOfGoal<G> {
    /// A goal reached when any of `goals` is.
    #[must_use]
    pub fn new(goals: Vec<G>) -> Self {
        Self { goals }
    }

    /// The index of the first goal that standing at `feet` reaches: call it on the last
    /// position of a found route to learn which goal the agent went for.
    #[must_use]
    pub fn which_reached(&self, feet: IVec3) -> Option<usize> {
        self.goals.iter().position(|goal| goal.is_reached(feet))
    }
}

impl<G: Goal> Goal for AnyOfGoal<G> {
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        self.goals.iter().any(|goal| goal.is_reached(feet))
    }

    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        self.goals
            .iter()
            .map(|goal| goal.estimate(feet, estimator))
            .min()
            .unwrap_or(0)
    }
}

impl std::fmt::Debug for dyn Goal + Send + Sync {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("dyn Goal")
    }
}

/// Get away from `point`: reached at any position at least `distance` blocks from it
/// (Euclidean, inclusive), measured in 3D or, with `horizontal`, over x and z only.
///
/// The estimate is `per_block * (distance - current distance)`, where `per_block` is the
/// least a move can cost per block of straight-line displacement. A straight step moves 1
/// block for at least `straight`, a diagonal step `sqrt 2` blocks for at least `diagonal`, and
/// each block climbed or fallen costs at least `ascend` or `descend`; so, by the triangle
/// inequality, the estimate never overestimates (admissible and consistent) with
/// `per_block = min(straight, diagonal / sqrt 2)` over x and z, and `min` of those and
/// `ascend`, `descend` in 3D. In 3D the bound is weak when falling is cheap (the default
/// `descend` is 2): use `horizontal` when height does not matter. The unit costs are read
/// from the search's [`Estimator`], so a weighted heuristic weights this estimate too and the
/// zero heuristic makes it 0.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::engine::AwayFromGoal;
/// use voxnav::Goal;
///
/// let flee = AwayFromGoal::horizontal(IVec3::new(0, 5, 0), 10);
/// assert!(flee.is_reached(IVec3::new(6, 0, 8)));
/// assert!(!flee.is_reached(IVec3::new(6, 0, 7)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AwayFromGoal {
    /// The point to get away from.
    pub point: IVec3,
    /// The least accepted distance, in blocks.
    pub distance: u32,
    /// Whether the distance is measured over x and z only (`true`) or in 3D.
    pub horizontal: bool,
}

impl AwayFromGoal {
    /// Get at least `distance` blocks from `point`, measured in 3D.
    #[must_use]
    pub const fn new(point: IVec3, distance: u32) -> Self {
        Self {
            point,
            distance,
            horizontal: false,
        }
    }

    /// Get at least `distance` blocks from `point`, measured over x and z only.
    #[must_use]
    pub const fn horizontal(point: IVec3, distance: u32) -> Self {
        Self {
            point,
            distance,
            horizontal: true,
        }
    }
}

/// The squared Euclidean distance between `a` and `b` (over x and z only with `horizontal`),
/// exact for any two positions: each difference is below 2^32, so the sum of three squares
/// fits 128 bits.
#[inline]
fn distance_squared(a: IVec3, b: IVec3, horizontal: bool) -> u128 {
    let d = a.as_i64vec3() - b.as_i64vec3();
    let square = |v: i64| u128::from(v.unsigned_abs()).pow(2);
    let vertical = if horizontal { 0 } else { square(d.y) };
    square(d.x) + vertical + square(d.z)
}

impl Goal for AwayFromGoal {
    /// Exact for every point, distance and position: the squares are summed in 128 bits.
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        distance_squared(feet, self.point, self.horizontal) >= u128::from(self.distance).pow(2)
    }

    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        // The square root is raised by a relative 2^-50, more than the rounding of the
        // conversion and of the root, so that far from the point (where one unit of the last
        // place is many blocks) the gap is never overstated.
        let distance = (distance_squared(feet, self.point, self.horizontal) as f64).sqrt();
        let gap = f64::from(self.distance) - distance * (1.0 + f64::EPSILON * 4.0);
        if gap <= 0.0 {
            return 0;
        }
        let straight = estimator.delta(1, 0, 0) as f64;
        let diagonal = estimator.delta(1, 0, 1) as f64 / std::f64::consts::SQRT_2;
        let mut per_block = straight.min(diagonal);
        if !self.horizontal {
            let ascend = estimator.delta(0, 1, 0) as f64;
            let descend = estimator.delta(0, -1, 0) as f64;
            // A flier's corner step covers sqrt 3 blocks.
            let corner = estimator.delta(1, 1, 1) as f64 / 3f64.sqrt();
            per_block = per_block.min(ascend).min(descend).min(corner);
        }
        // Shaved by a hair so that rounding in the square root never lifts the bound past
        // the true cost.
        ((gap * per_block * (1.0 - 1e-9)).floor() as u64).min(MAX_ESTIMATE)
    }
}
