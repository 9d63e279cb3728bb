//! Compression bombs in region files: a chunk whose small payload inflates to a gigabyte is
//! counted as [`SkipReason::TooLarge`] after at most [`MAX_CHUNK_NBT`] bytes of output, and
//! the load holds no more memory than that cap asks for. This binary counts the bytes each
//! thread holds, so it keeps to itself.
#![cfg(feature = "anvil")]

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use support::region::{GZIP, LZ4, ZLIB, gzip_zeros, region_of, zlib_zeros};
use voxnav::anvil::{LoadReport, MAX_CHUNK_NBT, SkipReason, load_region};

/// The system allocator, counting the bytes the current thread holds and the most it held
/// since [`peak_while`] started, so that parallel tests do not disturb each other's count.
struct Counting;

thread_local! {
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: allocations while a thread's locals are torn down are not counted.
    let _ = HELD.try_with(|held| {
        held.set(held.get() + delta);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(held.get())));
    });
}

#[expect(
    unsafe_code,
    reason = "a global allocator is an unsafe trait; this one passes every call to System"
)]
mod counting {
    use super::{Counting, GlobalAlloc, Layout, System, count};

    // SAFETY: every method hands its arguments unchanged to `System`, which upholds the
    // `GlobalAlloc` contract, and only adds bookkeeping that never allocates.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's guarantees about `layout` pass on to `System`.
            let ptr = unsafe { System.alloc(layout) };
            if !ptr.is_null() {
                count(layout.size() as isize);
            }
            ptr
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: as `alloc`.
            let ptr = unsafe { System.alloc_zeroed(layout) };
            if !ptr.is_null() {
                count(layout.size() as isize);
            }
            ptr
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
            unsafe { System.dealloc(ptr, layout) };
            count(-(layout.size() as isize));
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: as `dealloc` for `ptr` and `layout`; `new_size` is the caller's.
            let moved = unsafe { System.realloc(ptr, layout, new_size) };
            if !moved.is_null() {
                count(new_size as isize - layout.size() as isize);
            }
            moved
        }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Runs `f` and returns its answer with the most bytes this thread held above what it held
/// before.
fn peak_while<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let answer = f();
    let peak = PEAK.with(Cell::get);
    (answer, (peak - before).max(0) as usize)
}

/// The report of loading a region whose slot 0 holds `payload` stored as `scheme`.
fn load_one(scheme: u8, payload: &[u8]) -> LoadReport {
    let region = region_of(&[(0, scheme, payload)]);
    let loaded = load_region(&region, 0, 0).expect("the region header is whole");
    assert_eq!(loaded.report.chunks_stored, 1);
    loaded.report
}

/// The most copies of 258 zeros whose stream (with its leading zero) stays within the cap.
const COPIES_AT_CAP: usize = (MAX_CHUNK_NBT - 1) / 258;

#[test]
fn the_hand_made_checksums_are_right() {
    // Known CRC-32 and Adler-32 values of one zero byte: 0xD202EF8D and 0x00010001.
    let gzip = gzip_zeros(0);
    assert_eq!(
        gzip[gzip.len() - 8..gzip.len() - 4],
        0xD202_EF8D_u32.to_le_bytes()
    );
    let zlib = zlib_zeros(0);
    assert_eq!(zlib[zlib.len() - 4..], 0x0001_0001_u32.to_be_bytes());
}

/// The streams are valid: at the cap they decompress (and then fail as NBT, zeros being no
/// chunk), one copy more they are too large. The cap is exactly [`MAX_CHUNK_NBT`].
#[test]
fn zero_streams_decompress_up_to_the_cap_and_no_further() {
    for (scheme, stream) in [
        (ZLIB, zlib_zeros as fn(usize) -> Vec<u8>),
        (GZIP, gzip_zeros),
    ] {
        for copies in [1000, COPIES_AT_CAP] {
            let report = load_one(scheme, &stream(copies));
            assert_eq!(report.skipped(SkipReason::BadNbt), 1, "{copies}: {report}");
        }
        let report = load_one(scheme, &stream(COPIES_AT_CAP + 1));
        assert_eq!(report.skipped(SkipReason::TooLarge), 1, "{report}");
        // A damaged stream is still bad compression, not too large.
        let mut damaged = stream(1000);
        let last = damaged.len() - 1;
        damaged[last] ^= 0xff;
        let report = load_one(scheme, &damaged);
        assert_eq!(report.skipped(SkipReason::BadCompression), 1, "{report}");
    }
}

/// A 1 MB payload that inflates to 1 GB (gzip or zlib) is refused, and the load never holds
/// more than the cap's worth of memory on top of the world.
#[test]
fn a_gigabyte_bomb_is_refused_holding_little_memory() {
    let copies = 4_000_000;
    let inflated = 1 + 258 * copies;
    for (scheme, bomb) in [(ZLIB, zlib_zeros(copies)), (GZIP, gzip_zeros(copies))] {
        assert!(bomb.len() < 1_010_000 && inflated > 1_000_000_000);
        let region = region_of(&[(0, scheme, &bomb)]);
        let (loaded, peak) = peak_while(|| load_region(&region, 0, 0).unwrap());
        let report = &loaded.report;
        assert_eq!(report.skipped(SkipReason::TooLarge), 1, "{report}");
        assert_eq!(report.chunks_loaded, 0);
        assert!(
            peak <= MAX_CHUNK_NBT + (4 << 20),
            "held {peak} bytes at most for a bomb of {inflated}"
        );
    }
}

/// An LZ4 chunk is a series of blocks, each with a header giving its size class and lengths;
/// the decoder allocates a block's size class before reading it, so the headers are checked
/// first.
#[test]
fn lz4_blocks_declaring_too_much_are_refused_before_decoding() {
    /// A block header (the stream format of Java's `LZ4BlockOutputStream`) and `compressed`
    /// bytes of garbage for its body.
    fn block(level: u8, compressed: u32, decompressed: u32) -> Vec<u8> {
        let mut out = b"LZ4Block".to_vec();
        out.push(0x20 | level);
        out.extend_from_slice(&compressed.to_le_bytes());
        out.extend_from_slice(&decompressed.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend(std::iter::repeat_n(0x5a, compressed as usize));
        out
    }
    let blocks = |n: usize| -> Vec<u8> { (0..n).flat_map(|_| block(6, 8, 1 << 16)).collect() };
    let over = MAX_CHUNK_NBT / (1 << 16) + 1;
    // One block of the 32 MiB size class, or more 64 KiB blocks than the cap holds.
    for payload in [block(15, 8, 100), blocks(over)] {
        let report = load_one(LZ4, &payload);
        assert_eq!(report.skipped(SkipReason::TooLarge), 1, "{report}");
    }
    // Within the cap the headers pass, and the garbage bodies fail to decode.
    let report = load_one(LZ4, &blocks(over - 1));
    assert_eq!(report.skipped(SkipReason::BadCompression), 1, "{report}");
}
