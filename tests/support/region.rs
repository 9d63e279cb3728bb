//! Region files built in memory for the Anvil loader's tests: chunks stored with any
//! compression type, compression bombs (small deflate streams of a huge run of zeros), and
//! the region the tests ship ([`REGION`]).

/// The region the tests ship, `r.1.1.mca` of a real world (block x and z 512..1024).
pub const REGION: &str = "tests/data/minecraft/r.1.1.mca";

/// The bytes of [`REGION`].
pub fn region_bytes() -> Vec<u8> {
    std::fs::read(REGION).expect("the test region is shipped in tests/data/minecraft")
}

/// [`REGION`], loaded once per test binary.
#[cfg(feature = "anvil")]
pub fn loaded() -> &'static voxnav::anvil::LoadedWorld {
    static LOADED: std::sync::OnceLock<voxnav::anvil::LoadedWorld> = std::sync::OnceLock::new();
    LOADED.get_or_init(|| voxnav::anvil::load_world(REGION).expect("the shipped region loads"))
}

/// The compression types of a region file's chunk header.
pub const GZIP: u8 = 1;
/// See [`GZIP`].
pub const ZLIB: u8 = 2;
/// See [`GZIP`].
pub const UNCOMPRESSED: u8 = 3;
/// See [`GZIP`].
pub const LZ4: u8 = 4;

/// A region file holding each `(slot, compression type, payload)` in its own sectors; slot is
/// `z * 32 + x` of the chunk within the region.
pub fn region_of(chunks: &[(usize, u8, &[u8])]) -> Vec<u8> {
    let mut bytes = vec![0u8; 8192];
    for &(slot, scheme, payload) in chunks {
        let offset = bytes.len() / 4096;
        let sectors = (payload.len() + 5).div_ceil(4096);
        bytes[slot * 4..slot * 4 + 4].copy_from_slice(&[
            (offset >> 16) as u8,
            (offset >> 8) as u8,
            offset as u8,
            u8::try_from(sectors).expect("a chunk of at most 255 sectors"),
        ]);
        bytes.extend_from_slice(&(payload.len() as u32 + 1).to_be_bytes());
        bytes.push(scheme);
        bytes.extend_from_slice(payload);
        bytes.resize((offset + sectors) * 4096, 0);
    }
    bytes
}

/// Bits written least significant first, as deflate packs them.
struct Bits {
    bytes: Vec<u8>,
    used: u32,
}

impl Bits {
    /// `count` bits of `value`, lowest first (deflate's header fields and extra bits).
    fn value(&mut self, value: u32, count: u32) {
        for i in 0..count {
            if self.used.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let last = self.bytes.len() - 1;
            self.bytes[last] |= (((value >> i) & 1) as u8) << (self.used % 8);
            self.used += 1;
        }
    }

    /// A Huffman code of `len` bits, highest bit first (deflate's code order).
    fn code(&mut self, code: u32, len: u32) {
        for i in (0..len).rev() {
            self.value((code >> i) & 1, 1);
        }
    }
}

/// A raw deflate stream of `1 + 258 * copies` zero bytes: one literal zero, then `copies`
/// copies of 258 bytes from distance 1, in a dynamic-Huffman block whose copy symbols are one
/// bit each, the densest deflate can be (two bits per 258 bytes, about 1032 to 1).
fn deflate_zeros(copies: usize) -> Vec<u8> {
    let mut bits = Bits {
        bytes: Vec::with_capacity(copies / 4 + 64),
        used: 0,
    };
    bits.value(1, 1); // the last block
    bits.value(2, 2); // dynamic Huffman codes
    bits.value(286 - 257, 5); // literal/length codes 0..=285
    bits.value(0, 5); // one distance code
    bits.value(18 - 4, 4); // code-length codes up to position 18 of the order below
    // Code-length code lengths in deflate's order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1:
    // symbol 18 (a run of zeros) one bit, symbols 1 and 2 two bits.
    for len in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] {
        bits.value(len, 3);
    }
    // Canonical code-length codes: 18 is `0`, 1 is `10`, 2 is `11`.
    let zeros = |bits: &mut Bits, mut run: u32| {
        while run > 0 {
            let take = run.min(138);
            bits.code(0b0, 1);
            bits.value(take - 11, 7);
            run -= take;
        }
    };
    // The literal/length code lengths, then the distance code's.
    bits.code(0b11, 2); // literal 0: 2 bits
    zeros(&mut bits, 255); // literals 1..=255: unused
    bits.code(0b11, 2); // 256, the end of block: 2 bits
    zeros(&mut bits, 28); // lengths 257..=284: unused
    bits.code(0b10, 2); // 285, a copy of 258 bytes: 1 bit
    bits.code(0b10, 2); // distance code 0 (distance 1): 1 bit
    // Canonical literal/length codes: 285 is `0`, literal 0 is `10`, end of block is `11`;
    // the one distance code is `0`.
    bits.code(0b10, 2); // literal 0
    for _ in 0..copies {
        bits.code(0b0, 1);
        bits.code(0b0, 1);
    }
    bits.code(0b11, 2);
    bits.bytes
}

/// A zlib stream of `1 + 258 * copies` zero bytes (checksum included: it is valid to its end).
pub fn zlib_zeros(copies: usize) -> Vec<u8> {
    let len = 1 + 258 * copies as u64;
    // Adler-32 of zeros: the byte sum stays 1, the sum of sums is the length.
    let adler = ((len % 65521) << 16) as u32 | 1;
    let mut out = vec![0x78, 0x9c];
    out.extend(deflate_zeros(copies));
    out.extend_from_slice(&adler.to_be_bytes());
    out
}

/// A gzip stream of `1 + 258 * copies` zero bytes (checksum included: it is valid to its end).
pub fn gzip_zeros(copies: usize) -> Vec<u8> {
    let len = 1 + 258 * copies as u64;
    let crc = !crc32_register_after_zero_bits(!0, 8 * len);
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    out.extend(deflate_zeros(copies));
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out
}

/// The CRC-32 register (reflected, polynomial `0xEDB88320`) after `bits` zero bits from
/// `register`. One zero bit is a linear map of the register over GF(2); it is raised to the
/// power `bits` by repeated squaring, so a gigabyte of zeros costs a few thousand steps.
fn crc32_register_after_zero_bits(register: u32, bits: u64) -> u32 {
    /// The image of `vector` under the map whose column `i` (the image of bit `i`) is `map[i]`.
    fn apply(map: &[u32; 32], vector: u32) -> u32 {
        (0..32)
            .filter(|i| vector >> i & 1 == 1)
            .fold(0, |sum, i| sum ^ map[i])
    }
    // One zero bit: shift right, and add the polynomial when the bit shifted out was set.
    let mut step: [u32; 32] =
        std::array::from_fn(|i| if i == 0 { 0xEDB8_8320 } else { 1 << (i - 1) });
    let (mut register, mut bits) = (register, bits);
    while bits > 0 {
        if bits & 1 == 1 {
            register = apply(&step, register);
        }
        step = std::array::from_fn(|i| apply(&step, step[i]));
        bits >>= 1;
    }
    register
}
