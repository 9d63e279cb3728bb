//! The numbering of a [`NavGraph`]'s columns: tile by tile, so that a node's neighbours along
//! z are near it in memory, and each column's home slot and chain of further nodes.

use super::{NO_NODE, NavGraph, NodeId};

/// Columns are numbered tile by tile, [`TILE`] x [`TILE`] columns to a tile, and nodes are
/// numbered in column order at compile time: the neighbours of a node along z are then a few
/// hundred bytes away in memory rather than a whole row of the world.
pub(super) const TILE_SHIFT: u32 = 3;
pub(super) const TILE: i32 = 1 << TILE_SHIFT;

impl NavGraph {
    /// The index of the column at local `x`, `z` (both in the world): tile by tile, see
    /// [`TILE_SHIFT`].
    #[inline]
    pub(crate) fn column_index(&self, x: i32, z: i32) -> usize {
        self.row_part(z) + Self::x_part(x)
    }

    /// The part of [`NavGraph::column_index`] that depends on `z` only: the two parts add up
    /// to the index (their bits do not overlap), so a search works out the parts of the
    /// three rows and the three columns around a node once and adds two per move.
    #[inline]
    pub(crate) fn row_part(&self, z: i32) -> usize {
        let z = z as usize;
        let mask = TILE as usize - 1;
        (((z >> TILE_SHIFT) * self.tiles_per_row as usize) << (2 * TILE_SHIFT))
            | ((z & mask) << TILE_SHIFT)
    }

    /// The part of [`NavGraph::column_index`] that depends on `x` only.
    #[inline]
    pub(crate) fn x_part(x: i32) -> usize {
        let x = x as usize;
        ((x >> TILE_SHIFT) << (2 * TILE_SHIFT)) | (x & (TILE as usize - 1))
    }

    /// What to add to the index `column` of a column in the world (wrapping) to get the
    /// index of the column one step west, none, one step east (the first array) plus one step
    /// north, none, one step south (the second): one step within a tile, or to the next tile
    /// from a tile's edge. Offsets past the world's edge give indices of no use (at x = 0 or
    /// z = 0 they wrap around), which no move needs, since none leaves the world.
    #[inline]
    pub(crate) fn neighbour_offsets(&self, column: usize) -> ([usize; 3], [usize; 3]) {
        let mask = TILE as usize - 1;
        let tile = (TILE * TILE) as usize;
        // From the first column (row) of a tile to the last of the previous tile, and back.
        let across_x = tile - mask;
        let across_z = ((self.tiles_per_row as usize) << (2 * TILE_SHIFT)) - (mask << TILE_SHIFT);
        let (x, z) = (column & mask, (column >> TILE_SHIFT) & mask);
        let west = if x == 0 { across_x } else { 1 };
        let east = if x == mask { across_x } else { 1 };
        let north = if z == 0 { across_z } else { TILE as usize };
        let south = if z == mask { across_z } else { TILE as usize };
        (
            [west.wrapping_neg(), 0, east],
            [north.wrapping_neg(), 0, south],
        )
    }

    /// The local `x`, `z` of the column of index `column`: the inverse of
    /// [`NavGraph::column_index`] (outside the world for padding columns).
    #[inline]
    pub(super) fn column_xz(&self, column: usize) -> (i32, i32) {
        let [x, z] = self.tile_origins[column >> (2 * TILE_SHIFT)];
        let mask = TILE as usize - 1;
        let x = usize::from(x) | (column & mask);
        let z = usize::from(z) | ((column >> TILE_SHIFT) & mask);
        (x as i32, z as i32)
    }

    /// The node of `column` at local height `y` (never [`DEAD`]), or [`NO_NODE`]: the home
    /// slot first, then its chain.
    #[inline]
    pub(crate) fn find_in_column(&self, column: usize, y: u16) -> NodeId {
        let mut id = column as NodeId;
        loop {
            let slot = &self.slots[id as usize];
            if slot.y == y {
                return id;
            }
            id = slot.next;
            if id == NO_NODE {
                return NO_NODE;
            }
        }
    }
}
