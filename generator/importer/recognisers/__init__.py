"""Small recognisers of the surface forms an analysis document uses.

Each module recognises one form (a list item, a table, a record declaration, a labelled
field, a status line, a quotation) and returns plain values; none of them knows the
record model or writes anything.
"""
