unsigned step(unsigned i);
unsigned depth(unsigned n);
unsigned checksum(unsigned x);
