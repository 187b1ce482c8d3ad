import Plexus
print("tour")
