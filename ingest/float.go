package ingest

import (
	"math"
	"math/big"
	"math/bits"
)

// exactFloat returns mant * 10^q correctly rounded, as strconv.ParseFloat
// would, when it can do so cheaply: Clinger's fast path (a mantissa below
// 2^53 times or divided by an exact power of ten) or the Eisel-Lemire
// algorithm (as in strconv) for up to 19 digits. ok is false otherwise.
func exactFloat(mant uint64, q, digits int, neg bool) (float64, bool) {
	var f float64
	switch {
	case mant == 0:
		f = 0
	case digits <= 15 && q >= 0 && q <= 22:
		f = float64(mant) * pow10[q]
	case digits <= 15 && q < 0 && q >= -22:
		f = float64(mant) / pow10[-q]
	default:
		var ok bool
		if f, ok = eiselLemire(mant, q); !ok {
			return 0, false
		}
	}
	if neg {
		f = -f
	}
	return f, true
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Decimal exponents covered by powers128.
const minPow10, maxPow10 = -64, 64

// powers128[q-minPow10] is 10^q as a 128-bit mantissa {hi, lo} with its
// top bit set, rounded down: 10^q ≈ (hi<<64 | lo) * 2^(e-127) with
// e = floor(log2(10^q)), like strconv's detailedPowersOfTen.
var powers128 = func() (t [maxPow10 - minPow10 + 1][2]uint64) {
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for q := minPow10; q <= maxPow10; q++ {
		d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(q))), nil)
		m := new(big.Int)
		if q >= 0 {
			if sh := d.BitLen() - 128; sh > 0 {
				m.Rsh(d, uint(sh))
			} else {
				m.Lsh(d, uint(-sh))
			}
		} else {
			m.Lsh(big.NewInt(1), uint(127+d.BitLen()))
			m.Quo(m, d)
		}
		t[q-minPow10][0] = new(big.Int).Rsh(m, 64).Uint64()
		t[q-minPow10][1] = new(big.Int).And(m, mask).Uint64()
	}
	return t
}()

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// eiselLemire is strconv's eiselLemire64 (Daniel Lemire, "Number Parsing
// at a Gigabyte per Second") for man != 0 and q in [minPow10, maxPow10];
// ok is false where it cannot decide, and for subnormal or infinite
// results.
func eiselLemire(man uint64, q int) (float64, bool) {
	if q < minPow10 || q > maxPow10 {
		return 0, false
	}
	pow := &powers128[q-minPow10]
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	const bias = 1023
	retExp2 := uint64(217706*q>>16+64+bias) - uint64(clz)
	xHi, xLo := bits.Mul64(man, pow[0])
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[1])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false
	}
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	return math.Float64frombits(retExp2<<52 | retMantissa&(1<<52-1)), true
}
