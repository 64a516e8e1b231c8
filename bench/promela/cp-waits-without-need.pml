/* cases/redundant/cp-waits-without-need.sync: the state space of `syncproof check --engine exec` deciding deadlock-free without
   reduction (exec/search_order.cpp, search_deadlock with reduce=false): one bit per
   event of the lowering (model/lower*.cpp); an event fires once every event ordered
   before it has, and a wait once one of the signals or writes that can satisfy it has.
   Firing never disables anything. A state where nothing can fire although some event
   has not is a deadlock: SPIN reports it as an invalid end state.
   59 events, 104 orders, 0 constraining wait rules. */

bit e[59];

active proctype lowering() {
  do
  :: atomic { !e[0] -> e[0] = 1 }  /* gfx line 12: PFP processes the command */
  :: atomic { !e[1] && e[0] -> e[1] = 1 }  /* gfx line 12: ME processes the command */
  :: atomic { !e[2] && e[1] -> e[2] = 1 }  /* gfx line 12: cs waves start */
  :: atomic { !e[3] && e[2] && e[4] && e[5] -> e[3] = 1 }  /* gfx line 12: cs waves end */
  :: atomic { !e[4] && e[2] -> e[4] = 1 }  /* gfx line 12: writes grid_a as uav */
  :: atomic { !e[5] && e[4] -> e[5] = 1 }  /* gfx line 12: grid_a data reaches GL2 */
  :: atomic { !e[6] && e[0] -> e[6] = 1 }  /* gfx line 13: PFP processes the command */
  :: atomic { !e[7] && e[1] -> e[7] = 1 }  /* gfx line 13: SYNC_CPDMA: wait for CP DMA */
  :: atomic { !e[8] && e[7] && e[9] -> e[8] = 1 }  /* gfx line 13: partial flush: wait for earlier waves */
  :: atomic { !e[9] && e[3] -> e[9] = 1 }  /* gfx line 13: (earlier work done) */
  :: atomic { !e[10] && e[1] && e[11] -> e[10] = 1 }  /* gfx line 13: bottom of pipe reached */
  :: atomic { !e[11] && e[3] -> e[11] = 1 }  /* gfx line 13: (earlier work done) */
  :: atomic { !e[12] && e[1] && e[6] && e[7] && e[8] -> e[12] = 1 }  /* gfx line 13: ME continues after SyncBottomOfPipeX */
  :: atomic { !e[13] && e[10] -> e[13] = 1 }  /* gfx line 13: bottom-of-pipe operations done */
  :: atomic { !e[14] && e[6] && e[12] -> e[14] = 1 }  /* gfx line 14: PFP processes the command */
  :: atomic { !e[15] && e[12] -> e[15] = 1 }  /* gfx line 14: SYNC_CPDMA: wait for CP DMA */
  :: atomic { !e[16] && e[15] -> e[16] = 1 }  /* gfx line 14: PFP_SYNC_ME: PFP waits for the ME */
  :: atomic { !e[17] && e[16] && e[19] && e[20] -> e[17] = 1 }  /* gfx line 14: I$ invalidate */
  :: atomic { !e[18] && e[16] && e[19] && e[20] -> e[18] = 1 }  /* gfx line 14: GL0 invalidate */
  :: atomic { !e[19] && e[16] -> e[19] = 1 }  /* gfx line 14: GL1 invalidate */
  :: atomic { !e[20] && e[16] -> e[20] = 1 }  /* gfx line 14: M$ invalidate */
  :: atomic { !e[21] && e[12] && e[14] && e[17] && e[18] && e[19] && e[20] -> e[21] = 1 }  /* gfx line 14: ME resumes after SyncTopOfPipeX */
  :: atomic { !e[22] && e[14] && e[16] -> e[22] = 1 }  /* gfx line 15: PFP processes the command */
  :: atomic { !e[23] && e[21] && e[22] -> e[23] = 1 }  /* gfx line 15: ME processes the command */
  :: atomic { !e[24] && e[23] -> e[24] = 1 }  /* gfx line 15: vs waves start */
  :: atomic { !e[25] && e[24] -> e[25] = 1 }  /* gfx line 15: vs waves end */
  :: atomic { !e[26] && e[24] && e[24] -> e[26] = 1 }  /* gfx line 15: ps waves start */
  :: atomic { !e[27] && e[26] && e[29] -> e[27] = 1 }  /* gfx line 15: ps waves end */
  :: atomic { !e[28] && e[27] && e[30] && e[31] -> e[28] = 1 }  /* gfx line 15: render back-ends done */
  :: atomic { !e[29] && e[26] -> e[29] = 1 }  /* gfx line 15: reads grid_a as srv */
  :: atomic { !e[30] && e[26] -> e[30] = 1 }  /* gfx line 15: writes color as rt */
  :: atomic { !e[31] && e[30] -> e[31] = 1 }  /* gfx line 15: color data reaches CB */
  :: atomic { !e[32] && e[22] -> e[32] = 1 }  /* gfx line 17: PFP processes the command */
  :: atomic { !e[33] && e[23] && e[32] -> e[33] = 1 }  /* gfx line 17: ME processes the command */
  :: atomic { !e[34] && e[33] -> e[34] = 1 }  /* gfx line 17: cs waves start */
  :: atomic { !e[35] && e[34] && e[36] && e[37] -> e[35] = 1 }  /* gfx line 17: cs waves end */
  :: atomic { !e[36] && e[34] -> e[36] = 1 }  /* gfx line 17: writes grid_b as uav */
  :: atomic { !e[37] && e[36] -> e[37] = 1 }  /* gfx line 17: grid_b data reaches GL2 */
  :: atomic { !e[38] && e[32] -> e[38] = 1 }  /* gfx line 18: PFP processes the command */
  :: atomic { !e[39] && e[33] && e[40] -> e[39] = 1 }  /* gfx line 18: partial flush: wait for earlier waves */
  :: atomic { !e[40] && e[9] && e[35] -> e[40] = 1 }  /* gfx line 18: (earlier work done) */
  :: atomic { !e[41] && e[33] && e[42] && e[13] -> e[41] = 1 }  /* gfx line 18: bottom of pipe reached */
  :: atomic { !e[42] && e[11] && e[25] && e[27] && e[28] && e[35] -> e[42] = 1 }  /* gfx line 18: (earlier work done) */
  :: atomic { !e[43] && e[33] && e[38] && e[39] -> e[43] = 1 }  /* gfx line 18: ME continues after SyncBottomOfPipeX */
  :: atomic { !e[44] && e[41] -> e[44] = 1 }  /* gfx line 18: bottom-of-pipe operations done */
  :: atomic { !e[45] && e[38] -> e[45] = 1 }  /* gfx line 19: PFP processes the command */
  :: atomic { !e[46] && e[43] && e[47] -> e[46] = 1 }  /* gfx line 19: GL0 invalidate */
  :: atomic { !e[47] && e[43] -> e[47] = 1 }  /* gfx line 19: GL1 invalidate */
  :: atomic { !e[48] && e[43] && e[45] && e[46] && e[47] -> e[48] = 1 }  /* gfx line 19: ME resumes after SyncTopOfPipeX */
  :: atomic { !e[49] && e[45] -> e[49] = 1 }  /* gfx line 20: PFP processes the command */
  :: atomic { !e[50] && e[48] && e[49] -> e[50] = 1 }  /* gfx line 20: ME processes the command */
  :: atomic { !e[51] && e[50] -> e[51] = 1 }  /* gfx line 20: vs waves start */
  :: atomic { !e[52] && e[51] -> e[52] = 1 }  /* gfx line 20: vs waves end */
  :: atomic { !e[53] && e[51] && e[51] -> e[53] = 1 }  /* gfx line 20: ps waves start */
  :: atomic { !e[54] && e[53] && e[56] -> e[54] = 1 }  /* gfx line 20: ps waves end */
  :: atomic { !e[55] && e[54] && e[57] && e[58] -> e[55] = 1 }  /* gfx line 20: render back-ends done */
  :: atomic { !e[56] && e[53] -> e[56] = 1 }  /* gfx line 20: reads grid_b as srv */
  :: atomic { !e[57] && e[53] && e[31] -> e[57] = 1 }  /* gfx line 20: writes color as rt */
  :: atomic { !e[58] && e[57] -> e[58] = 1 }  /* gfx line 20: color data reaches CB */
  :: atomic { e[0] && e[1] && e[2] && e[3] && e[4] && e[5] && e[6] && e[7] && e[8] && e[9] && e[10] && e[11] && e[12] && e[13] && e[14] && e[15] && e[16] && e[17] && e[18] && e[19] && e[20] && e[21] && e[22] && e[23] && e[24] && e[25] && e[26] && e[27] && e[28] && e[29] && e[30] && e[31] && e[32] && e[33] && e[34] && e[35] && e[36] && e[37] && e[38] && e[39] && e[40] && e[41] && e[42] && e[43] && e[44] && e[45] && e[46] && e[47] && e[48] && e[49] && e[50] && e[51] && e[52] && e[53] && e[54] && e[55] && e[56] && e[57] && e[58] -> break }  /* every event happened */
  od
}
