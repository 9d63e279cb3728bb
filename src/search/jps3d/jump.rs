//! The jump move source: the search loop's view of the jump records, the jumps from a
//! position, and the jump itself.

use glam::IVec3;

use super::canon::{Tables, rank as dir_rank};
use super::face::face_jump;
use super::fits::Fits;
use super::plus::JumpTables;
use super::{JumpRecord, START};
use crate::moves::fly::FREE_DIRECTIONS;
use crate::search::cells::{CellTable, Neighbourhood};
use crate::search::core::{MoveSource, Offer, RecordTable, Successor};
use crate::world::VoxelWorld;

/// The records of a jump search as the search loop sees them: a [`CellTable`] whose records
/// keep their explicit parent and the arrival directions reached at their cost.
pub(super) struct JumpRecords<'a> {
    pub(super) cells: &'a mut CellTable<JumpRecord>,
    /// The tag of this search's records.
    pub(super) tag: u32,
}

impl RecordTable for JumpRecords<'_> {
    type Record = JumpRecord;
    /// A successor's cell.
    type At = u32;
    /// The direction of the jump (as a bit of [`FREE_DIRECTIONS`]) and the "fits" bits around
    /// its end when the jump read them (else 0).
    type Via = (u32, u32);

    /// Open while it has arrival directions not expanded yet.
    #[inline]
    fn open_record(&mut self, node: u32) -> Option<JumpRecord> {
        let record = *self.cells.cell(node);
        (record.pending != 0).then_some(record)
    }

    #[inline]
    fn g(record: JumpRecord) -> u64 {
        record.g
    }

    /// The pending arrivals become expanded ones.
    #[inline]
    fn close(&mut self, node: u32) {
        let record = self.cells.cell(node);
        record.done |= record.pending;
        record.pending = 0;
    }

    #[inline]
    fn nearly_full(&self) -> bool {
        self.cells.nearly_full()
    }

    /// Taken when new or cheaper (its arrivals then only this one), and when as cheap by a
    /// direction it was not reached by yet (which needs its own natural moves: the module
    /// notes), so that the position is expanded again for it.
    #[inline]
    fn offer(&mut self, to: u32, g: u64, parent: u32, (bit, around): (u32, u32)) -> Offer {
        let tag = self.tag;
        let record = self.cells.cell(to);
        if record.tag != tag || g < record.g {
            *record = JumpRecord {
                g,
                tag,
                parent,
                pending: bit,
                done: 0,
                around,
            };
            return Offer::Taken(to);
        }
        if g == record.g && (record.pending | record.done) & bit == 0 {
            record.pending |= bit;
            return Offer::Taken(to);
        }
        Offer::Kept
    }
}

/// The jumps from a position as the search loop's move source.
pub(super) struct JumpMoves<'a, W: ?Sized> {
    pub(super) tables: &'a Tables,
    pub(super) fits: &'a mut Fits,
    /// The precomputed face jumps, when the search has them.
    pub(super) plus: Option<&'a JumpTables>,
    pub(super) world: &'a W,
    pub(super) goal: IVec3,
}

impl<'t, W: VoxelWorld + ?Sized> MoveSource<JumpRecords<'t>> for JumpMoves<'_, W> {
    type Landing = IVec3;

    #[inline]
    fn feet(&self, table: &JumpRecords<'t>, node: u32) -> IVec3 {
        table.cells.position(node)
    }

    /// Jumps in each natural and forced direction of the arrivals not expanded yet, less
    /// those an arrival expanded at the same cost jumped already.
    fn expand(
        &mut self,
        table: &mut JumpRecords<'t>,
        node: u32,
        record: JumpRecord,
        at: IVec3,
        mut relax: impl FnMut(&mut JumpRecords<'t>, Successor<u32, (u32, u32), IVec3>) -> bool,
    ) {
        let tables = self.tables;
        // With tables, the cell of `at` in them (an expanded position lies in the bounds).
        let plus_at = self
            .plus
            .and_then(|plus| plus.index(at).map(|index| (plus, index)));
        let around = match (record.around, plus_at) {
            (0, Some((plus, index))) => plus.around_at(index),
            (0, None) => self.fits.around(self.world, at),
            (around, _) => around,
        };
        let mut arrivals = record.pending;
        let mut dirs = 0u32;
        while arrivals != 0 {
            let a = arrivals.trailing_zeros() as usize;
            arrivals &= arrivals - 1;
            dirs |= tables.natural[a];
            if a != START {
                dirs |= tables.forced_moves(a, around);
            }
        }
        // A jump in an illegal direction returns at once: legality is not tested apart.
        let mut done = record.done;
        while done != 0 {
            let a = done.trailing_zeros() as usize;
            done &= done - 1;
            dirs &= !tables.natural[a];
            if a != START {
                dirs &= !tables.forced_moves(a, around);
            }
        }
        // Moves to a neighbour find its node at a fixed offset when it stays in the page.
        let neighbours = Neighbourhood::new(node, at);
        let ahead = tables.ahead(self.fits, self.plus.is_some());
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let required = tables.required[dir];
            if around & required != required {
                continue;
            }
            // With no steps to read ahead (or at the goal) the jump ends on its first step, and
            // no call is made.
            let next = at + FREE_DIRECTIONS[dir];
            let (to_node, to, to_around, steps) = if next == self.goal || ahead & (1 << dir) == 0 {
                let to_node = if neighbours.inside & (1 << dir) != 0 {
                    Some(neighbours.neighbour(dir))
                } else {
                    table.cells.neighbour_node(node, at, next)
                };
                (to_node, next, 0, 1)
            } else {
                let jumped = match plus_at {
                    // Face and edge jumps read the tables at once.
                    Some((plus, index)) if tables.tabled & (1 << dir) != 0 => plus
                        .jump_at(index, at, dir, self.goal, tables.plus_limits[0])
                        .map(|to| (to, 0)),
                    _ => jump(
                        tables, self.plus, self.fits, self.world, at, around, dir, self.goal,
                    ),
                };
                let Some((to, to_around)) = jumped else {
                    continue;
                };
                let steps = (to - at).abs().max_element() as u32;
                (table.cells.node(to), to, to_around, steps)
            };
            let Some(to_node) = to_node else {
                continue;
            };
            let successor = Successor {
                at: to_node,
                landing: to,
                cost: steps * tables.step[dir],
                via: (1 << dir, to_around),
            };
            if !relax(table, successor) {
                return;
            }
        }
    }
}

/// Jumps from `from` (whose neighbourhood is `around`) in the direction `dir`: the first
/// position that is the goal, has a forced move, or from which a natural sub-direction's jump
/// returns something, with the "fits" bits around it when they were read (else 0); `None`
/// when the next move is illegal first. After [`Tables::limit`] positions read, the next
/// position is returned. A face jump reads the precomputed tables when there are some
/// ([`JumpTables::face_jump`]), or may scan by word ([`face_jump`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn jump<W: VoxelWorld + ?Sized>(
    tables: &Tables,
    plus: Option<&JumpTables>,
    fits: &mut Fits,
    world: &W,
    from: IVec3,
    around: u32,
    dir: usize,
    goal: IVec3,
) -> Option<(IVec3, u32)> {
    let d = FREE_DIRECTIONS[dir];
    if let Some(plus) = plus {
        match dir_rank(d) {
            1 => return plus.face_jump(from, dir, goal).map(|to| (to, 0)),
            2 => {
                let limit = tables.plus_limits[0];
                return plus.edge_jump(from, dir, goal, limit).map(|to| (to, 0));
            }
            _ => {}
        }
    } else if tables.scans(dir, fits) {
        return face_jump(tables, fits, world, from, dir, goal, tables.face_cap);
    }
    let required = tables.required[dir];
    let mut steps = match plus {
        Some(_) => tables.plus_limits[dir_rank(d) as usize - 2],
        None => tables.limit(dir, fits),
    };
    let (mut at, mut around) = (from, around);
    loop {
        if around & required != required {
            return None;
        }
        let next = at + d;
        if next == goal || steps == 0 {
            return Some((next, 0));
        }
        steps -= 1;
        let next_around = match plus {
            Some(plus) => plus.around(next),
            None => fits.around(world, next),
        };
        if tables.forced_moves(dir, next_around) != 0 {
            return Some((next, next_around));
        }
        let mut sub = tables.sub[dir];
        while sub != 0 {
            let s = sub.trailing_zeros() as usize;
            sub &= sub - 1;
            if jump(tables, plus, fits, world, next, next_around, s, goal).is_some() {
                return Some((next, next_around));
            }
        }
        at = next;
        around = next_around;
    }
}
