"""The statute graph: ontology, Cypher and stores. Imports no sibling package."""
