"""Layer 3, engines: what the models are built on or checked against, with no paper's
reading of its own results.

sim      the cycle-level SM simulator (simulated data only)
refsim   the simulated reference GPU the Huang & Li model is scored against
mwp_cwp  Hong & Kim's MWP-CWP equations (2009), which the Huang & Li model extends
"""
