/* Built without -pg: its calls are not counted. */
#include "work.h"

unsigned checksum(unsigned x)
{
    return (x * 2654435761u) >> 7;
}
