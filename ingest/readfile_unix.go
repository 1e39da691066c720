//go:build unix

package ingest

import "syscall"

// readSmall reads the regular file at path, of at most StreamThreshold
// and max bytes (max < 0: no limit), into buf (grown if needed) with four
// system calls (open, fstat, read, close) and no os.File. ok is false, and
// the caller must use the os package (which also gives the errors their
// usual text), when anything is unusual: an error, not a regular file, a
// large file, or a file that grew since fstat. The file is opened
// non-blocking, so that a named pipe is not waited on.
func readSmall(path string, buf []byte, max int64) (data, newBuf []byte, ok bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, buf, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > StreamThreshold || max >= 0 && st.Size > max {
		return nil, buf, false
	}
	size := int(st.Size)
	if cap(buf) < size+1 {
		buf = make([]byte, 0, size+1+size/4)
	}
	b := buf[:size+1]
	n := 0
	for n < size { // a read of a regular file returns less only at its end
		m, err := syscall.Read(fd, b[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, buf, false
		}
		if m == 0 {
			break
		}
		n += m
	}
	if n > size { // grew since fstat
		return nil, buf, false
	}
	return b[:n], buf, true
}
