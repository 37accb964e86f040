"""The research workflow: complexity routing, grounded generation, GenGround verification, confidence."""
