//! Face jumps precomputed (JPS+ in 3D): for every cell of a bounded world and each of the 6
//! face directions, how far a face jump from there runs before it must stop, so that a search
//! answers a face jump with one table read (and a few more on long open lines) and a test of
//! whether the goal lies on the line before the stop.
//!
//! A face jump from `c` along `d` steps while the move is legal (the body fits at the next
//! position) and stops at the first position where a move is forced after arriving along `d`
//! ([`Tables::forced_moves`], the test of the cell-by-cell jump), or at the goal. The goal
//! changes with the query, the rest only with the world: the table holds the rest.
//!
//! One byte per cell and direction: `JUMP | n` (`n` in `1..=127`): the jump stops at a forced
//! move `n` steps on; `n` in `0..=126`: `n` free steps, then a wall (the jump returns nothing
//! unless the goal lies within them); [`MORE`]: 127 free steps without a forced move, read the
//! entry 127 steps on. Six bytes per cell: 8.8 MB for `Simple` (105 x 132 x 105), 50 MB for a
//! 256 x 128 x 256 world.

use glam::IVec3;

use super::MAX_JUMP_HEIGHT;
use super::canon::{Tables, rank};
use super::fits::{Fits, MAX_DENSE_WORDS, around_bit};
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::FREE_DIRECTIONS;
use crate::moves::wide::BoxView;
use crate::world::{Bounds, Revision, VoxelWorld};

/// The most cells the tables cover (6 bytes each: 100 MB).
pub const MAX_TABLE_CELLS: u64 = 1 << 24;

/// The flag of an entry that ends at a forced move.
const JUMP: u8 = 0x80;

/// The bit of a cell's build mark saying that the body fits there (bits 0 to 5: a move is
/// forced there after arriving along that face).
const FITS: u8 = 1 << 6;

/// The entry of 127 free steps without a forced move: read again 127 steps on.
const MORE: u8 = 127;

/// The jump distances of one world state for one agent (see the module notes): built once,
/// read by [`JumpSearch::find_path_with_tables`](super::JumpSearch::find_path_with_tables)
/// until the world changes. Bounded worlds of at most [`MAX_TABLE_CELLS`] cells only.
///
/// ```
/// use voxnav::engine::JumpSearch;
/// use voxnav::search::jps3d::JumpTables;
/// use voxnav::world::DenseWorld;
/// use voxnav::{Agent, IVec3, MoveCosts, SearchOptions};
/// let world = DenseWorld::new(IVec3::new(8, 8, 8))?;
/// let tables = JumpTables::build(&world, Agent::flier(1))?;
/// let mut jps = JumpSearch::new(Agent::flier(1), MoveCosts::octile())?;
/// let options = SearchOptions::default();
/// let result = jps.find_path_with_tables(&tables, &world, IVec3::ZERO, IVec3::new(7, 3, 5), &options)?;
/// assert_eq!(result.path.len(), 8);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct JumpTables {
    agent: Agent,
    bounds: Bounds,
    size: IVec3,
    /// The entries of the cell `(x, y, z)` (relative to the bounds' low corner) at
    /// `(x * size.y + y) * size.z + z`, by face (see [`face`]).
    entries: Vec<[u8; 6]>,
    /// The face (see [`face`]) of each face direction of [`FREE_DIRECTIONS`] (0 for the
    /// others), and by face how far the index moves 127 steps along it.
    faces: [usize; 26],
    more_strides: [isize; 6],
    /// The "fits" words of the world, all filled: the neighbourhood of a position without
    /// reading the world again.
    fits: Fits,
    /// The world and version the tables describe, when the world can tell
    /// ([`Revision::of`]).
    source: Option<Revision>,
}

/// The face index (`2 * axis + 1` when positive) of the face direction `d`.
#[inline]
fn face(d: IVec3) -> usize {
    let axis = if d.x != 0 {
        0
    } else if d.y != 0 {
        1
    } else {
        2
    };
    2 * axis + usize::from(d[axis] > 0)
}

/// The entry of a cell whose next position along the line fits and has no forced move, from
/// the entry of that next position.
#[inline]
fn one_more(next: u8) -> u8 {
    if next & JUMP != 0 {
        let n = next & !JUMP;
        if n < 127 { JUMP | (n + 1) } else { MORE }
    } else {
        // 126 free steps and one more are `MORE` (a wall 0 steps after the 127th).
        (next + 1).min(MORE)
    }
}

impl JumpTables {
    /// The tables of `agent` (a flier or swimmer one to [`MAX_JUMP_HEIGHT`] cells tall, of any
    /// width the rules take) in `world` as it is now. Reads every cell of the world once;
    /// rebuild them after the world changes.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for an invalid agent, a walker or a body taller than
    /// [`MAX_JUMP_HEIGHT`]; [`Error::NeedsBounds`] for a world without finite bounds (or an
    /// empty one); [`Error::InvalidSetting`] for one of more than [`MAX_TABLE_CELLS`] cells.
    pub fn build<W: VoxelWorld + ?Sized>(world: &W, agent: Agent) -> Result<Self> {
        agent.validate()?;
        if !agent.movement.is_free() || agent.height > MAX_JUMP_HEIGHT {
            return Err(Error::InvalidSetting(format!(
                "jump tables are for fliers and swimmers up to {MAX_JUMP_HEIGHT} cells tall, \
                 not a {} agent {} cells tall",
                agent.movement.as_str(),
                agent.height
            )));
        }
        let mut tables = match agent.width {
            1 => Self::fill(world, agent),
            width => Self::fill(&BoxView::new(world, width), agent),
        }?;
        tables.source = Revision::of(world);
        Ok(tables)
    }

    /// Whether the tables describe `world` as it is now: `Ok` for the world they were built
    /// from at the version they were built at, and for any world when the world they were
    /// built from could not tell its version (no [`VoxelWorld::watch`]: then keeping the
    /// tables current is the caller's business).
    ///
    /// # Errors
    /// [`Error::OtherWorld`] for another world than the one they were built from;
    /// [`Error::StaleJumpTables`] for that world at a later version.
    pub fn check_current<W: VoxelWorld + ?Sized>(&self, world: &W) -> Result<()> {
        let Some(built) = self.source else {
            return Ok(());
        };
        match Revision::of(world) {
            Some(now) if now.world == built.world => {
                if now.version == built.version {
                    Ok(())
                } else {
                    Err(Error::StaleJumpTables {
                        built: built.version,
                        now: now.version,
                    })
                }
            }
            given => Err(Error::OtherWorld {
                what: "jump tables",
                built: built.world.get(),
                given: given.map(|now| now.world.get()),
            }),
        }
    }

    fn fill<W: VoxelWorld + ?Sized>(world: &W, agent: Agent) -> Result<Self> {
        let bounds = world
            .bounds()
            .filter(|b| !b.is_empty())
            .ok_or(Error::NeedsBounds("jump tables"))?;
        let cells = bounds.volume();
        if cells > MAX_TABLE_CELLS {
            return Err(Error::InvalidSetting(format!(
                "jump tables cover at most {MAX_TABLE_CELLS} cells, and the world's bounds \
                 ({} to {}) hold {cells}",
                bounds.min, bounds.max
            )));
        }
        let size = bounds.size();
        // The forced moves do not depend on the costs.
        let tables = Tables::new(&MoveCosts::octile());
        let mut fits = Fits::default();
        fits.start(world, &agent, false);
        if !fits.fill_all(world) {
            return Err(Error::InvalidSetting(format!(
                "jump tables need the world's columns in at most {MAX_DENSE_WORDS} words of \
                 62 cells, and the bounds {} to {} need more",
                bounds.min, bounds.max
            )));
        }
        // Per cell: bit `FITS` whether the body fits, bit `f` whether a move is forced there
        // after arriving along face `f`.
        let faces: [usize; 6] = std::array::from_fn(|f| {
            let d = IVec3::AXES[f / 2] * if f % 2 == 1 { 1 } else { -1 };
            FREE_DIRECTIONS.iter().position(|&e| e == d).unwrap_or(0)
        });
        let mut marks = vec![0u8; cells as usize];
        let mut i = 0;
        for x in 0..size.x {
            for y in 0..size.y {
                for z in 0..size.z {
                    let around = fits.around_filled(bounds.min + IVec3::new(x, y, z));
                    if around & around_bit(IVec3::ZERO) != 0 {
                        let mut mark = FITS;
                        for (f, &dir) in faces.iter().enumerate() {
                            if tables.forced_moves(dir, around) != 0 {
                                mark |= 1 << f;
                            }
                        }
                        marks[i] = mark;
                    }
                    i += 1;
                }
            }
        }
        let mut entries = vec![[0u8; 6]; cells as usize];
        let strides = [size.y as usize * size.z as usize, size.z as usize, 1usize];
        // `f` picks the byte of every cell's entries, not a cell.
        #[allow(clippy::needless_range_loop)]
        for f in 0..6 {
            let (axis, forward) = (f / 2, f % 2 == 1);
            let length = size[axis] as usize;
            let stride = strides[axis];
            // Every line along the axis, from its far end back: the entry of a cell is made
            // from the entry of the next cell along the line.
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            for a in 0..size[u] as usize {
                for b in 0..size[v] as usize {
                    let first = a * strides[u] + b * strides[v];
                    let mut next_entry = 0u8;
                    for t in 0..length {
                        let t = if forward { length - 1 - t } else { t };
                        let cell = first + t * stride;
                        let entry = if t == if forward { length - 1 } else { 0 } {
                            0
                        } else {
                            let next = if forward {
                                cell + stride
                            } else {
                                cell - stride
                            };
                            let mark = marks[next];
                            if mark & FITS == 0 {
                                0
                            } else if mark & (1 << f) != 0 {
                                JUMP | 1
                            } else {
                                one_more(next_entry)
                            }
                        };
                        entries[cell][f] = entry;
                        next_entry = entry;
                    }
                }
            }
        }
        let axis_strides = [strides[0] as isize, strides[1] as isize, 1];
        Ok(Self {
            agent,
            bounds,
            size,
            entries,
            faces: FREE_DIRECTIONS.map(|d| if rank(d) == 1 { face(d) } else { 0 }),
            more_strides: std::array::from_fn(|f| {
                let sign = if f % 2 == 1 { 1 } else { -1 };
                sign * axis_strides[f / 2] * isize::from(MORE)
            }),
            fits,
            source: None,
        })
    }

    /// The agent the tables were built for.
    #[must_use]
    pub fn agent(&self) -> Agent {
        self.agent
    }

    /// The bounds of the world the tables were built for.
    #[must_use]
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// The bytes the tables take.
    #[must_use]
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.entries.len() * 6 + self.fits.bytes()
    }

    /// The "fits" bits around `p` (see [`Fits::around`]).
    #[inline]
    pub(super) fn around(&self, p: IVec3) -> u32 {
        self.fits.around_filled(p)
    }

    /// The most steps a jump can take in the tables' world: its longest side.
    pub(super) fn longest_line(&self) -> u32 {
        self.size.max_element() as u32
    }

    /// The index of the entries of `p`, `None` outside the bounds.
    #[inline]
    fn index(&self, p: IVec3) -> Option<usize> {
        let r = p - self.bounds.min;
        let size = self.size;
        // Negative components wrap to large unsigned ones, outside the size too.
        if r.x as u32 >= size.x as u32 || r.y as u32 >= size.y as u32 || r.z as u32 >= size.z as u32
        {
            return None;
        }
        Some((r.x as usize * size.y as usize + r.y as usize) * size.z as usize + r.z as usize)
    }

    /// The face jump from `from` in the face direction `dir` (an index of
    /// [`FREE_DIRECTIONS`]): the goal when it lies on the line before the stop, else the
    /// first position with a forced move, `None` when a wall comes first.
    #[inline]
    pub(super) fn face_jump(&self, from: IVec3, dir: usize, goal: IVec3) -> Option<IVec3> {
        let d = FREE_DIRECTIONS[dir];
        let f = self.faces[dir];
        let to_goal = goal - from;
        let along = to_goal.dot(d);
        // The goal's steps along the line, or none (`i32::MAX`) when it is not on it ahead.
        let goal_steps = if along > 0 && to_goal == d * along {
            along
        } else {
            i32::MAX
        };
        let mut index = self.index(from)?;
        // The entries of the cell 127 steps on along the line, which a `MORE` entry says
        // lies inside the bounds.
        let stride = self.more_strides[f];
        let mut done = 0i32;
        loop {
            let entry = self.entries.get(index)?[f];
            let n = i32::from(entry & !JUMP);
            if goal_steps <= done + n {
                return Some(goal);
            }
            if entry != MORE {
                return (entry & JUMP != 0).then(|| from + d * (done + n));
            }
            done += n;
            index = index.wrapping_add_signed(stride);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::jps3d::face::tests::face_jump_by_cells;
    use crate::world::{Block, ChunkedWorld};

    /// The tables' face jumps stop where the cell-by-cell jump stops (at forced moves, at
    /// the goal on the line, or nowhere at a wall), along every face direction, on random
    /// worlds long enough for continued entries (more than 127 free steps), at negative and
    /// positive offsets, for fliers and swimmers one to three cells tall and two wide.
    #[test]
    fn table_jumps_stop_where_the_cell_by_cell_jump_stops() {
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let tables = Tables::new(&MoveCosts::octile());
        let mut fits = Fits::default();
        let (mut jumps, mut long) = (0, 0);
        for round in 0..10u32 {
            let min = IVec3::new(
                (next() % 200) as i32 - 100,
                (next() % 200) as i32 - 100,
                (next() % 200) as i32 - 100,
            );
            // One long axis in turn, so that lines of more than 127 free steps occur.
            let mut size = IVec3::new(
                8 + (next() % 20) as i32,
                8 + (next() % 20) as i32,
                8 + (next() % 20) as i32,
            );
            size[(round % 3) as usize] = 300 + (next() % 100) as i32;
            let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
            let solid = next() % 6;
            for x in 0..size.x {
                for y in 0..size.y {
                    for z in 0..size.z {
                        let p = min + IVec3::new(x, y, z);
                        let roll = next() % 100;
                        if roll < solid {
                            world.set(p, Block::Solid).unwrap();
                        } else if roll < 50 {
                            world.set(p, Block::Water).unwrap();
                        }
                    }
                }
            }
            let agent = match round % 4 {
                0 => Agent::flier(1),
                1 => Agent::swimmer(2),
                2 => Agent::flier(3),
                _ => Agent::flier(1).with_width(2),
            };
            let plus = JumpTables::build(&world, agent).unwrap();
            // The world as the body sees it (itself for a body one cell wide).
            let view = BoxView::new(&world, agent.width);
            fits.start(&view, &agent, false);
            for _ in 0..400 {
                let at = min
                    + IVec3::new(
                        (next() % size.x as u64) as i32,
                        (next() % size.y as u64) as i32,
                        (next() % size.z as u64) as i32,
                    );
                for dir in (0..26).filter(|&j| FREE_DIRECTIONS[j].abs().element_sum() == 1) {
                    let d = FREE_DIRECTIONS[dir];
                    // Half the goals on the line (some past the stop), half off it.
                    let goal = if next().is_multiple_of(2) {
                        at + d * (1 + (next() % 400) as i32)
                    } else {
                        at + IVec3::ONE
                    };
                    if !fits.fits(&view, at) {
                        continue;
                    }
                    let expected = face_jump_by_cells(&tables, &mut fits, &view, at, dir, goal, 0)
                        .map(|(stop, _)| stop);
                    let found = plus.face_jump(at, dir, goal);
                    assert_eq!(found, expected, "{agent:?} {at} {d} goal {goal}");
                    jumps += usize::from(found.is_some());
                    long +=
                        usize::from(found.is_some_and(|to| (to - at).abs().max_element() > 127));
                }
            }
        }
        assert!(
            jumps > 3000 && long > 20,
            "{jumps} jumps, {long} past 127 steps"
        );
    }
}
