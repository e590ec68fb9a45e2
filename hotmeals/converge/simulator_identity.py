"""Who the app is to its Converge simulator: the demo merchant and user, and the variable
that may set the PIN (unset: the PIN generated with the simulator's store and kept there)."""

SIM_MERCHANT_ID = "000000"
SIM_USER_ID = "hotmeals"
SIM_PIN_VAR = "CONVERGE_SIM_PIN"
