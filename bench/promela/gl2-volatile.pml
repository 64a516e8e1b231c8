/* cases/redundant/gl2-volatile.sync: the state space of `syncproof check --engine exec` deciding deadlock-free without
   reduction (exec/search_order.cpp, search_deadlock with reduce=false): one bit per
   event of the lowering (model/lower*.cpp); an event fires once every event ordered
   before it has, and a wait once one of the signals or writes that can satisfy it has.
   Firing never disables anything. A state where nothing can fire although some event
   has not is a deadlock: SPIN reports it as an invalid end state.
   55 events, 86 orders, 2 constraining wait rules. */

bit e[55];

active proctype lowering() {
  do
  :: atomic { !e[0] -> e[0] = 1 }  /* gfx line 22: PFP processes the command */
  :: atomic { !e[1] && (e[43]) -> e[1] = 1 }  /* gfx line 22: wait for done_a GREATER_EQUAL 1 satisfied */
  :: atomic { !e[2] && e[0] && e[1] -> e[2] = 1 }  /* gfx line 22: ME resumes after the wait */
  :: atomic { !e[3] && e[0] -> e[3] = 1 }  /* gfx line 23: PFP processes the command */
  :: atomic { !e[4] && e[2] && e[5] -> e[4] = 1 }  /* gfx line 23: GL0 invalidate */
  :: atomic { !e[5] && e[2] -> e[5] = 1 }  /* gfx line 23: GL1 invalidate */
  :: atomic { !e[6] && e[2] && e[3] && e[4] && e[5] -> e[6] = 1 }  /* gfx line 23: ME resumes after SyncTopOfPipeX */
  :: atomic { !e[7] && e[3] -> e[7] = 1 }  /* gfx line 24: PFP processes the command */
  :: atomic { !e[8] && e[6] && e[7] -> e[8] = 1 }  /* gfx line 24: ME processes the command */
  :: atomic { !e[9] && e[8] -> e[9] = 1 }  /* gfx line 24: vs waves start */
  :: atomic { !e[10] && e[9] -> e[10] = 1 }  /* gfx line 24: vs waves end */
  :: atomic { !e[11] && e[9] && e[9] -> e[11] = 1 }  /* gfx line 24: ps waves start */
  :: atomic { !e[12] && e[11] && e[14] -> e[12] = 1 }  /* gfx line 24: ps waves end */
  :: atomic { !e[13] && e[12] && e[15] && e[16] -> e[13] = 1 }  /* gfx line 24: render back-ends done */
  :: atomic { !e[14] && e[11] -> e[14] = 1 }  /* gfx line 24: reads grid_a as srv */
  :: atomic { !e[15] && e[11] -> e[15] = 1 }  /* gfx line 24: writes color as rt */
  :: atomic { !e[16] && e[15] -> e[16] = 1 }  /* gfx line 24: color data reaches CB */
  :: atomic { !e[17] && e[7] -> e[17] = 1 }  /* gfx line 25: PFP processes the command */
  :: atomic { !e[18] && e[8] && (e[53]) -> e[18] = 1 }  /* gfx line 25: wait for done_b GREATER_EQUAL 1 satisfied */
  :: atomic { !e[19] && e[8] && e[17] && e[18] -> e[19] = 1 }  /* gfx line 25: ME resumes after the wait */
  :: atomic { !e[20] && e[17] -> e[20] = 1 }  /* gfx line 26: PFP processes the command */
  :: atomic { !e[21] && e[19] && e[22] -> e[21] = 1 }  /* gfx line 26: GL0 invalidate */
  :: atomic { !e[22] && e[19] -> e[22] = 1 }  /* gfx line 26: GL1 invalidate */
  :: atomic { !e[23] && e[19] && e[20] && e[21] && e[22] -> e[23] = 1 }  /* gfx line 26: ME resumes after SyncTopOfPipeX */
  :: atomic { !e[24] && e[20] -> e[24] = 1 }  /* gfx line 27: PFP processes the command */
  :: atomic { !e[25] && e[23] && e[24] -> e[25] = 1 }  /* gfx line 27: ME processes the command */
  :: atomic { !e[26] && e[25] -> e[26] = 1 }  /* gfx line 27: vs waves start */
  :: atomic { !e[27] && e[26] -> e[27] = 1 }  /* gfx line 27: vs waves end */
  :: atomic { !e[28] && e[26] && e[26] -> e[28] = 1 }  /* gfx line 27: ps waves start */
  :: atomic { !e[29] && e[28] && e[31] -> e[29] = 1 }  /* gfx line 27: ps waves end */
  :: atomic { !e[30] && e[29] && e[32] && e[33] -> e[30] = 1 }  /* gfx line 27: render back-ends done */
  :: atomic { !e[31] && e[28] -> e[31] = 1 }  /* gfx line 27: reads grid_b as srv */
  :: atomic { !e[32] && e[28] && e[16] -> e[32] = 1 }  /* gfx line 27: writes color as rt */
  :: atomic { !e[33] && e[32] -> e[33] = 1 }  /* gfx line 27: color data reaches CB */
  :: atomic { !e[34] -> e[34] = 1 }  /* acs line 16: compute engine processes the command */
  :: atomic { !e[35] && e[34] -> e[35] = 1 }  /* acs line 16: cs waves start */
  :: atomic { !e[36] && e[35] && e[37] && e[38] -> e[36] = 1 }  /* acs line 16: cs waves end */
  :: atomic { !e[37] && e[35] -> e[37] = 1 }  /* acs line 16: writes grid_a as uav */
  :: atomic { !e[38] && e[37] -> e[38] = 1 }  /* acs line 16: grid_a data reaches GL2 */
  :: atomic { !e[39] && e[34] -> e[39] = 1 }  /* acs line 17: compute engine processes the command */
  :: atomic { !e[40] && e[39] && e[41] -> e[40] = 1 }  /* acs line 17: bottom of pipe reached */
  :: atomic { !e[41] && e[36] -> e[41] = 1 }  /* acs line 17: (earlier work done) */
  :: atomic { !e[42] && e[40] -> e[42] = 1 }  /* acs line 17: GL2 write-back */
  :: atomic { !e[43] && e[40] && e[42] -> e[43] = 1 }  /* acs line 17: done_a = 1 lands */
  :: atomic { !e[44] && e[40] && e[42] && e[43] -> e[44] = 1 }  /* acs line 17: bottom-of-pipe operations done */
  :: atomic { !e[45] && e[39] -> e[45] = 1 }  /* acs line 18: compute engine processes the command */
  :: atomic { !e[46] && e[45] -> e[46] = 1 }  /* acs line 18: cs waves start */
  :: atomic { !e[47] && e[46] && e[48] && e[49] -> e[47] = 1 }  /* acs line 18: cs waves end */
  :: atomic { !e[48] && e[46] -> e[48] = 1 }  /* acs line 18: writes grid_b as uav */
  :: atomic { !e[49] && e[48] -> e[49] = 1 }  /* acs line 18: grid_b data reaches GL2 */
  :: atomic { !e[50] && e[45] -> e[50] = 1 }  /* acs line 19: compute engine processes the command */
  :: atomic { !e[51] && e[50] && e[52] && e[44] -> e[51] = 1 }  /* acs line 19: bottom of pipe reached */
  :: atomic { !e[52] && e[41] && e[47] -> e[52] = 1 }  /* acs line 19: (earlier work done) */
  :: atomic { !e[53] && e[51] -> e[53] = 1 }  /* acs line 19: done_b = 1 lands */
  :: atomic { !e[54] && e[51] && e[53] -> e[54] = 1 }  /* acs line 19: bottom-of-pipe operations done */
  :: atomic { e[0] && e[1] && e[2] && e[3] && e[4] && e[5] && e[6] && e[7] && e[8] && e[9] && e[10] && e[11] && e[12] && e[13] && e[14] && e[15] && e[16] && e[17] && e[18] && e[19] && e[20] && e[21] && e[22] && e[23] && e[24] && e[25] && e[26] && e[27] && e[28] && e[29] && e[30] && e[31] && e[32] && e[33] && e[34] && e[35] && e[36] && e[37] && e[38] && e[39] && e[40] && e[41] && e[42] && e[43] && e[44] && e[45] && e[46] && e[47] && e[48] && e[49] && e[50] && e[51] && e[52] && e[53] && e[54] -> break }  /* every event happened */
  od
}
