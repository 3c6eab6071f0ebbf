/* Validity of an emulated HZ (see jiffies.h). */
#include "jiffies.h"

int jiffies_hz_valid(unsigned hz)
{
	return hz >= 8 && hz <= 10000;
}
