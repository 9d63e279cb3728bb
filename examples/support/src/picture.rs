//! [`Picture`]: an RGB image with the few drawing operations the examples' pictures need
//! (filled squares, thick lines, discs, numbered labels), written as PNG.

use std::io::BufWriter;

use super::args::Output;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// Black, for outlines and label text.
pub const BLACK: Rgb = [0, 0, 0];
/// White, for label backgrounds.
pub const WHITE: Rgb = [255, 255, 255];

/// An 8-bit RGB image, rows from the top. Drawing outside it is clipped, never a panic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Picture {
    /// A `width` x `height` picture filled with `colour`.
    #[must_use]
    pub fn new(width: u32, height: u32, colour: Rgb) -> Self {
        let count = width as usize * height as usize;
        Self {
            width,
            height,
            pixels: colour.repeat(count),
        }
    }

    /// A map of a `columns` x `rows` grid of cells: cell `(x, row)` is a `scale` x `scale`
    /// square of the colour `colour(x, row)` gives, row 0 at the top.
    #[must_use]
    pub fn from_cells(
        columns: u32,
        rows: u32,
        scale: u32,
        colour: impl Fn(u32, u32) -> Rgb,
    ) -> Self {
        let mut picture = Self::new(columns * scale, rows * scale, BLACK);
        let side = i64::from(scale);
        for row in 0..rows {
            for x in 0..columns {
                let (left, top) = (i64::from(x) * side, i64::from(row) * side);
                picture.fill_rect(left, top, side, side, colour(x, row));
            }
        }
        picture
    }

    /// The width in pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The height in pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels: `height` rows of `width` RGB triples.
    #[must_use]
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        let inside =
            (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.height)).contains(&y);
        inside.then(|| (y as usize * self.width as usize + x as usize) * 3)
    }

    /// The colour at `(x, y)`, if inside.
    #[must_use]
    pub fn get(&self, x: i64, y: i64) -> Option<Rgb> {
        let i = self.index(x, y)?;
        Some([self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]])
    }

    /// Sets the pixel at `(x, y)` (ignored outside).
    pub fn set(&mut self, x: i64, y: i64, colour: Rgb) {
        if let Some(i) = self.index(x, y) {
            self.pixels[i..i + 3].copy_from_slice(&colour);
        }
    }

    /// Mixes `colour` into the pixel at `(x, y)`: `alpha` 0 keeps it, 1 replaces it.
    pub fn blend(&mut self, x: i64, y: i64, colour: Rgb, alpha: f32) {
        if let Some(old) = self.get(x, y) {
            self.set(x, y, mix(old, colour, alpha));
        }
    }

    /// Fills the rectangle of `width` x `height` pixels whose top-left pixel is `(x, y)`.
    pub fn fill_rect(&mut self, x: i64, y: i64, width: i64, height: i64, colour: Rgb) {
        for py in y..y + height {
            for px in x..x + width {
                self.set(px, py, colour);
            }
        }
    }

    /// A filled disc of radius `radius` pixels centred on `(x, y)` (pixel centres).
    pub fn disc(&mut self, x: f32, y: f32, radius: f32, colour: Rgb) {
        let reach = radius.ceil() as i64 + 1;
        let (cx, cy) = (x.floor() as i64, y.floor() as i64);
        for py in cy - reach..=cy + reach {
            for px in cx - reach..=cx + reach {
                let (dx, dy) = (px as f32 + 0.5 - x, py as f32 + 0.5 - y);
                if dx * dx + dy * dy <= radius * radius {
                    self.set(px, py, colour);
                }
            }
        }
    }

    /// A line from `from` to `to` (pixel coordinates), `radius` pixels either side of its
    /// centre line, with round ends.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), radius: f32, colour: Rgb) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        // Discs at most half a pixel apart leave no gaps.
        let steps = (dx.abs().max(dy.abs()) * 2.0).ceil().max(1.0) as u32;
        for step in 0..=steps {
            let t = step as f32 / steps as f32;
            self.disc(from.0 + dx * t, from.1 + dy * t, radius, colour);
        }
    }

    /// Writes `text` (digits, `#`, `-` and spaces; other characters are drawn as spaces) with
    /// its top-left corner at `(x, y)`, in a 3 x 5 pixel font enlarged `size` times.
    pub fn text(&mut self, x: i64, y: i64, text: &str, size: i64, colour: Rgb) {
        for (i, c) in text.chars().enumerate() {
            let glyph = glyph(c);
            let left = x + i as i64 * 4 * size;
            for row in 0..5 {
                for column in 0..3 {
                    if glyph >> (14 - (row * 3 + column)) & 1 == 1 {
                        self.fill_rect(left + column * size, y + row * size, size, size, colour);
                    }
                }
            }
        }
    }

    /// The size in pixels of `text` drawn by [`Picture::text`] at `size`.
    #[must_use]
    pub fn text_size(text: &str, size: i64) -> (i64, i64) {
        let n = text.chars().count() as i64;
        ((4 * n - 1).max(0) * size, 5 * size)
    }

    /// `text` in black on a white box with a black border, the box's top-left corner at
    /// `(x, y)`; returns the box's size.
    pub fn label(&mut self, x: i64, y: i64, text: &str, size: i64) -> (i64, i64) {
        let (w, h) = Self::text_size(text, size);
        let (bw, bh) = (w + 2 * size + 2, h + 2 * size + 2);
        self.fill_rect(x, y, bw, bh, BLACK);
        self.fill_rect(x + 1, y + 1, bw - 2, bh - 2, WHITE);
        self.text(x + 1 + size, y + 1 + size, text, size, BLACK);
        (bw, bh)
    }

    /// Writes the picture as an 8-bit RGB PNG into `out`.
    ///
    /// # Errors
    /// A message naming the file when encoding or writing fails.
    pub fn write_png(&self, out: Output) -> Result<(), String> {
        let (path, file) = out.into_parts();
        let failed = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
        let mut encoder = png::Encoder::new(BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| failed(&e))?;
        writer
            .write_image_data(&self.pixels)
            .map_err(|e| failed(&e))?;
        writer.finish().map_err(|e| failed(&e))
    }
}

/// `from` mixed with `to`: `alpha` 0 gives `from`, 1 gives `to`.
#[must_use]
pub fn mix(from: Rgb, to: Rgb, alpha: f32) -> Rgb {
    let alpha = alpha.clamp(0.0, 1.0);
    std::array::from_fn(|i| {
        (f32::from(from[i]) + (f32::from(to[i]) - f32::from(from[i])) * alpha).round() as u8
    })
}

/// `colour` with each channel multiplied by `factor` (clamped to 0..=255).
#[must_use]
pub fn shade(colour: Rgb, factor: f32) -> Rgb {
    colour.map(|c| (f32::from(c) * factor).clamp(0.0, 255.0) as u8)
}

/// The 3 x 5 glyph of `c`, row by row from the top, the most significant of 15 bits first.
fn glyph(c: char) -> u16 {
    match c {
        '0' => 0b111_101_101_101_111,
        '1' => 0b010_110_010_010_111,
        '2' => 0b111_001_111_100_111,
        '3' => 0b111_001_111_001_111,
        '4' => 0b101_101_111_001_001,
        '5' => 0b111_100_111_001_111,
        '6' => 0b111_100_111_101_111,
        '7' => 0b111_001_001_001_001,
        '8' => 0b111_101_111_101_111,
        '9' => 0b111_101_111_001_111,
        '#' => 0b101_111_101_111_101,
        '-' => 0b000_000_111_000_000,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_is_clipped_and_lines_have_no_gaps() {
        let mut picture = Picture::new(20, 10, WHITE);
        picture.line((2.5, 2.5), (17.5, 7.5), 1.0, BLACK);
        // Every column the line crosses holds a black pixel.
        for x in 3..17 {
            assert!(
                (0..10).any(|y| picture.get(x, y) == Some(BLACK)),
                "gap at x = {x}"
            );
        }
        picture.disc(-3.0, -3.0, 2.0, BLACK);
        picture.fill_rect(15, 5, 100, 100, [1, 2, 3]);
        assert_eq!(picture.get(19, 9), Some([1, 2, 3]));
        assert_eq!(picture.get(20, 0), None);
        assert_eq!(picture.pixels().len(), 20 * 10 * 3);
    }

    #[test]
    fn cells_are_squares_of_their_colour() {
        let red = [200, 0, 0];
        let picture = Picture::from_cells(2, 1, 3, |x, _| if x == 0 { WHITE } else { red });
        assert_eq!((picture.width(), picture.height()), (6, 3));
        assert_eq!(picture.get(2, 2), Some(WHITE));
        assert_eq!(picture.get(3, 0), Some(red));
        assert_eq!(picture.get(6, 0), None);
    }

    #[test]
    fn digits_are_drawn_in_their_box() {
        let mut picture = Picture::new(30, 12, WHITE);
        let (w, h) = picture.label(0, 0, "18", 1);
        assert_eq!((w, h), (11, 9));
        // The "1" has its stem in the middle column, the "8" is closed on the left.
        assert_eq!(picture.get(3, 2), Some(BLACK));
        assert_eq!(picture.get(6, 4), Some(BLACK));
        assert_eq!(picture.get(w, 0), Some(WHITE));
        assert_eq!(mix(BLACK, WHITE, 0.5), [128, 128, 128]);
    }
}
